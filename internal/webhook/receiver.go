// Package webhook receives push events from GitHub and GitLab for `gitnexus
// serve`: it checks the delivery's signature, finds the registered
// repositories whose origin the push went to, fast-forwards their checkouts
// when that is safe, and re-indexes them, debounced per repository. Nothing
// outside the registered repositories is touched.
package webhook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/debounce"
)

// DefaultDebounce is how long a repository's queue waits after the last
// push before it fetches and re-indexes: pushes of several branches or a
// merge train give one run.
const DefaultDebounce = time.Second

// maxRecent is how many outcomes Recent keeps.
const maxRecent = 50

// Repo is a registered repository.
type Repo struct {
	ID   string
	Path string
}

// Options configure a Receiver.
type Options struct {
	// Secret signs GitHub deliveries and is GitLab's token. Required.
	Secret string
	// Repos lists the registered repositories.
	Repos func() []Repo
	// Reindex brings the index of the repository at root up to date.
	Reindex func(ctx context.Context, root string) error
	// Debounce is DefaultDebounce when 0.
	Debounce time.Duration
	// Log receives a line per rejected delivery and per outcome; nil
	// logs nothing.
	Log *slog.Logger
}

// Receiver handles webhook deliveries. It is safe for concurrent use.
type Receiver struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	queues map[string]*queue // by repository id
	recent []Outcome
}

// queue is one repository's pending pushes (the latest per ref) and its
// debouncer.
type queue struct {
	repo    Repo
	d       *debounce.Debouncer
	mu      sync.Mutex
	pending map[string]Push
}

// ErrNoSecret refuses a receiver without a secret.
var ErrNoSecret = errors.New("the webhook needs a secret: set --webhook-secret or GITNEXUS_WEBHOOK_SECRET")

// New returns a Receiver; Close stops its queues.
func New(opts Options) (*Receiver, error) {
	if opts.Secret == "" {
		return nil, ErrNoSecret
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Receiver{opts: opts, ctx: ctx, cancel: cancel, queues: map[string]*queue{}}, nil
}

// Close stops the queues, waiting for runs in progress (their context is
// cancelled).
func (r *Receiver) Close() {
	r.cancel()
	r.wg.Wait()
}

// Handle answers one delivery: 401 for a missing or bad signature, 400
// for a delivery that is neither provider's or not JSON, 404 when no
// registered repository has the pushed origin, 200 for events that are
// not pushes to a branch, and 202 when the push was queued.
func (r *Receiver) Handle(h http.Header, body []byte) (int, any) {
	var (
		push     Push
		err      error
		provider string
		event    string
	)
	switch {
	case h.Get("X-GitHub-Event") != "":
		provider, event = "github", h.Get("X-GitHub-Event")
		if !validGitHubSignature(body, h.Get("X-Hub-Signature-256"), r.opts.Secret) {
			return r.unauthorized(provider, h, "X-Hub-Signature-256 is missing or does not match the body signed with the secret")
		}
		switch event {
		case "ping":
			return http.StatusOK, map[string]any{"status": "pong"}
		case "push":
			push, err = parseGitHub(body)
		}
	case h.Get("X-Gitlab-Event") != "" || h.Get("X-Gitlab-Token") != "":
		provider, event = "gitlab", h.Get("X-Gitlab-Event")
		if !validGitLabToken(h.Get("X-Gitlab-Token"), r.opts.Secret) {
			return r.unauthorized(provider, h, "X-Gitlab-Token is missing or is not the secret")
		}
		if event == "Push Hook" {
			push, err = parseGitLab(body)
			event = "push"
		}
	default:
		return http.StatusBadRequest, errorBody("not a GitHub or GitLab delivery: expected X-GitHub-Event with X-Hub-Signature-256, or X-Gitlab-Event with X-Gitlab-Token")
	}
	if event != "push" {
		return http.StatusOK, map[string]any{"status": "ignored", "reason": fmt.Sprintf("%s event %q is not a push", provider, event)}
	}
	if err != nil {
		return http.StatusBadRequest, errorBody(err.Error())
	}
	if push.Branch() == "" || push.Deleted {
		return http.StatusOK, map[string]any{"status": "ignored", "reason": fmt.Sprintf("%s is not a branch update", push.Ref)}
	}
	repos := r.match(push)
	if len(repos) == 0 {
		r.opts.Log.Warn("webhook: no registered repository matches the push", "provider", provider, "repository", push.Name,
			"urls", strings.Join(push.URLs, " "), "delivery", delivery(h))
		return http.StatusNotFound, errorBody(fmt.Sprintf("no registered repository has %s (%s) as its origin",
			orUnnamed(push.Name), strings.Join(push.URLs, ", ")))
	}
	ids := make([]string, 0, len(repos))
	for _, repo := range repos {
		r.enqueue(repo, push)
		ids = append(ids, repo.ID)
	}
	r.opts.Log.Info("webhook: push queued", "provider", provider, "ref", push.Ref, "after", push.After,
		"repos", strings.Join(ids, ","), "delivery", delivery(h))
	return http.StatusAccepted, map[string]any{"status": "accepted", "ref": push.Ref, "repos": ids}
}

func (r *Receiver) unauthorized(provider string, h http.Header, why string) (int, any) {
	r.opts.Log.Warn("webhook: rejected delivery", "provider", provider, "reason", why, "delivery", delivery(h))
	return http.StatusUnauthorized, errorBody(why)
}

func delivery(h http.Header) string {
	if d := h.Get("X-GitHub-Delivery"); d != "" {
		return d
	}
	return h.Get("X-Gitlab-Event-UUID")
}

func orUnnamed(s string) string {
	if s == "" {
		return "the repository"
	}
	return s
}

func errorBody(msg string) map[string]string { return map[string]string{"error": msg} }

// match finds the registered repositories whose origin is the pushed
// repository: by address, else by owner/name.
func (r *Receiver) match(p Push) []Repo {
	want := map[string]bool{}
	for _, u := range p.URLs {
		if k := remoteKey(u); k != "" {
			want[k] = true
		}
	}
	var byURL, byName []Repo
	for _, repo := range r.opts.Repos() {
		origin, err := git(r.ctx, repo.Path, "config", "--get", "remote.origin.url")
		if err != nil {
			continue
		}
		k := remoteKey(origin)
		switch {
		case k == "":
		case want[k]:
			byURL = append(byURL, repo)
		case matchesName(k, p.Name):
			byName = append(byName, repo)
		}
	}
	out := byURL
	if len(out) == 0 {
		out = byName
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// enqueue records the push as the repository's pending one and triggers
// its debouncer.
func (r *Receiver) enqueue(repo Repo, p Push) {
	r.mu.Lock()
	q := r.queues[repo.ID]
	if q == nil {
		q = &queue{repo: repo, pending: map[string]Push{}}
		q.d = debounce.New(r.opts.Debounce, func(ctx context.Context) { r.serve(ctx, q) })
		r.queues[repo.ID] = q
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			q.d.Run(r.ctx)
		}()
	}
	r.mu.Unlock()
	q.mu.Lock()
	q.pending[p.Ref] = p
	q.mu.Unlock()
	q.d.Trigger()
}

// serve handles a repository's pending pushes: update the checkout for
// each (only a push to the checked-out branch changes it), then re-index
// once.
func (r *Receiver) serve(ctx context.Context, q *queue) {
	q.mu.Lock()
	pushes := make([]Push, 0, len(q.pending))
	for _, p := range q.pending {
		pushes = append(pushes, p)
	}
	q.pending = map[string]Push{}
	q.mu.Unlock()
	sort.Slice(pushes, func(i, j int) bool { return pushes[i].Ref < pushes[j].Ref })
	var outcomes []Outcome
	applied := false
	for _, p := range pushes {
		o := Outcome{Repo: q.repo.ID, Ref: p.Ref}
		if err := updateCheckout(ctx, q.repo.Path, p, &o); err == nil && o.Action != "skipped" {
			applied = true
		}
		outcomes = append(outcomes, o)
	}
	if applied {
		rerr := r.opts.Reindex(ctx, q.repo.Path)
		for i := range outcomes {
			o := &outcomes[i]
			if o.Action != "fast-forwarded" && o.Action != "up-to-date" {
				continue
			}
			if rerr != nil {
				o.Action, o.Reason = "failed", "re-indexing failed: "+rerr.Error()
			} else {
				o.Reindexed = true
			}
		}
	}
	for _, o := range outcomes {
		r.record(o)
	}
}

// record logs an outcome and keeps it for Recent.
func (r *Receiver) record(o Outcome) {
	attrs := []any{"repo", o.Repo, "ref", o.Ref, "action", o.Action}
	if o.From != "" {
		attrs = append(attrs, "from", short(o.From), "to", short(o.To))
	}
	if o.Reason != "" {
		attrs = append(attrs, "reason", o.Reason)
	}
	if o.Action == "rejected" || o.Action == "failed" {
		r.opts.Log.Warn("webhook: push not applied", attrs...)
	} else {
		r.opts.Log.Info("webhook: push handled", attrs...)
	}
	r.mu.Lock()
	r.recent = append(r.recent, o)
	if len(r.recent) > maxRecent {
		r.recent = r.recent[len(r.recent)-maxRecent:]
	}
	r.mu.Unlock()
}

// Recent returns the latest outcomes, oldest first.
func (r *Receiver) Recent() []Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Outcome{}, r.recent...)
}
