package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Outcome is what a push did to one registered repository.
type Outcome struct {
	Repo string `json:"repo"`
	Ref  string `json:"ref"`
	// Action: fast-forwarded, up-to-date, skipped (the push is to
	// another branch than the one checked out), rejected (the checkout
	// was left alone: uncommitted changes, not a fast-forward, fetch
	// failed), failed (re-indexing failed).
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	// Reindexed: the index was brought up to date afterwards.
	Reindexed bool `json:"reindexed"`
}

// errRejected marks a push the checkout was not updated for.
var errRejected = errors.New("rejected")

// updateCheckout brings the checkout at root to the tip of the pushed
// branch when that branch is checked out, the work tree has no changes to
// tracked files, and the new tip is a fast-forward: git fetch from origin,
// then git merge --ff-only. Anything else leaves the checkout as it is,
// with the reason.
func updateCheckout(ctx context.Context, root string, p Push, o *Outcome) error {
	branch := p.Branch()
	if branch == "" || strings.HasPrefix(branch, "-") {
		o.Action, o.Reason = "skipped", fmt.Sprintf("%s is not a branch", p.Ref)
		return nil
	}
	if _, err := git(ctx, root, "check-ref-format", "refs/heads/"+branch); err != nil {
		o.Action, o.Reason = "rejected", fmt.Sprintf("%q is not a valid branch name", branch)
		return errRejected
	}
	current, _ := git(ctx, root, "symbolic-ref", "--short", "-q", "HEAD")
	if current != branch {
		o.Action = "skipped"
		o.Reason = fmt.Sprintf("the checkout is on %s, the push is to %s", orDetached(current), branch)
		return nil
	}
	if changes, err := git(ctx, root, "status", "--porcelain", "--untracked-files=no"); err != nil || changes != "" {
		o.Action = "rejected"
		o.Reason = "the work tree has uncommitted changes to tracked files; commit or stash them, the checkout was left alone"
		if err != nil {
			o.Reason = "git status failed: " + err.Error()
		}
		return errRejected
	}
	tracking := "refs/remotes/origin/" + branch
	if _, err := git(ctx, root, "fetch", "--quiet", "--no-tags", "origin", "+refs/heads/"+branch+":"+tracking); err != nil {
		o.Action, o.Reason = "rejected", "git fetch from origin failed: "+err.Error()
		return errRejected
	}
	head, err := git(ctx, root, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		o.Action, o.Reason = "rejected", "the checkout has no HEAD commit"
		return errRejected
	}
	tip, err := git(ctx, root, "rev-parse", "--verify", "-q", tracking+"^{commit}")
	if err != nil {
		o.Action, o.Reason = "rejected", "the fetched branch has no commit"
		return errRejected
	}
	o.From, o.To = head, tip
	if head == tip {
		o.Action = "up-to-date"
		return nil
	}
	if _, err := git(ctx, root, "merge-base", "--is-ancestor", head, tip); err != nil {
		o.Action = "rejected"
		o.Reason = fmt.Sprintf("not a fast-forward: the checkout's %s is not an ancestor of the pushed %s (a force push, or local commits); the checkout was left alone",
			short(head), short(tip))
		return errRejected
	}
	if _, err := git(ctx, root, "merge", "--ff-only", "--quiet", tip); err != nil {
		o.Action, o.Reason = "rejected", "git merge --ff-only failed: "+err.Error()
		return errRejected
	}
	o.Action = "fast-forwarded"
	return nil
}

func orDetached(b string) string {
	if b == "" {
		return "a detached HEAD"
	}
	return b
}

func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

// git runs git in dir without prompting for credentials, and returns its
// trimmed output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return "", err
		}
		return "", fmt.Errorf("%w: %s", err, msg)
	}
	return strings.TrimSpace(string(out)), nil
}
