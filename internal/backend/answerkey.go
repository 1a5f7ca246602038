package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Answers that servers may share: a tool whose answer depends on the
// index alone (Tool.IndexOnly) gives the same answer to the same
// arguments for as long as the index is the same build. AnswerKey names
// that (repository, build, tool, arguments); a cache keyed by it never
// hands out an answer computed from another build, so a re-index needs
// no invalidation: the new build's keys are new and the old ones age out.
//
// One thing in an answer is not a function of the index: its freshness
// (the `index` object's stale, reasons and check times, and the "Stale
// index" line), which comes from a check of the work tree. A reused
// answer carries the freshness of when it was first computed, for at most
// the cache's time to live.

// AnswerKey names the answer of a call for a cache: ok is false when the
// call's answer may not be reused (an unknown tool or one that reads the
// repository, invalid arguments: the call reports them itself). err is a
// repository that cannot be resolved or opened; the caller answers the
// call uncached, and the call reports the error.
//
// The key holds the repository's id and the identity of its index's build
// (indexIdentity), the tool's name as called (the REST answer repeats it)
// and the arguments after checking (aliases folded into the parameters'
// names, numbers as numbers, map keys sorted), without "repo", which the
// id replaces.
func (b *Backend) AnswerKey(ctx context.Context, tool string, args map[string]any) (key string, ok bool, err error) {
	t, found := LookupTool(tool)
	if !found || !t.IndexOnly {
		return "", false, nil
	}
	a, err := newArgs(t, args)
	if err != nil {
		return "", false, nil
	}
	ref, _ := a.vals["repo"].(string)
	r, err := b.Resolve(ref)
	if err != nil {
		return "", false, err
	}
	s, release, err := b.repo(ctx, r)
	if err != nil {
		return "", false, err
	}
	id := indexIdentity(s.Repo.ID, s.Meta.Generation, s.Meta.IndexedAt, s.Meta.IndexedCommit)
	release()
	vals := make(map[string]any, len(a.vals))
	for k, v := range a.vals {
		if k != "repo" {
			vals[k] = v
		}
	}
	canon, err := json.Marshal(vals) // encoding/json sorts map keys, nested ones too
	if err != nil {
		return "", false, fmt.Errorf("encode the arguments of %s: %w", tool, err)
	}
	return id + "\n" + tool + "\n" + string(canon), true, nil
}

// CacheableAnswer reports whether res, the answer to a call whose
// AnswerKey was key, may be stored under key: the call read nothing but
// the index, and the answer comes from the build the key names (not from
// one a re-index installed between AnswerKey and the call).
func CacheableAnswer(key string, res *Result) bool {
	if res == nil || res.volatile || res.Index == nil {
		return false
	}
	st := res.Index
	return strings.HasPrefix(key, indexIdentity(st.Repo, st.Generation, st.IndexedAt, st.Commit)+"\n")
}

// indexIdentity is what tells one build of a repository's index from
// every other: Meta.Generation counts the builds of one index directory
// only, so two machines (or a deleted and rebuilt index) can reach the
// same number with different contents; the time of the build (to the
// nanosecond) and the commit it was built at tell those apart.
//
// An index kept elsewhere (a database shared by replicas) gives its own
// build identity through the same Meta fields: a generation the database
// assigns, and the time and commit of the build.
func indexIdentity(repo string, gen int64, indexedAt time.Time, commit string) string {
	b, _ := json.Marshal([]any{repo, gen, indexedAt.UnixNano(), commit})
	return string(b)
}
