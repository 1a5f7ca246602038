package repofiles

import (
	"context"

	"gitnexus.dev/gitnexus/internal/timeline"
)

// Listing is a listing of a repository's files started ahead of its use,
// which then waits for it instead of listing them itself: the caller has
// other processes to wait for meanwhile (`git status`).
type Listing struct {
	root string
	done chan struct{}
	res  *Result
	err  error
}

// StartListing starts listing the files under root as List does.
// untracked, when not nil, gives the untracked files (not ignored) that a
// `git status` of root found, once it has, and false when it could not
// tell: git is then asked for the tracked files alone, which it reads from
// its index, and the files are not searched for twice (both searches read
// every directory). The tracked files are looked at meanwhile.
func StartListing(ctx context.Context, root string, untracked func() ([]string, bool)) *Listing {
	l := &Listing{root: root, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.res, l.err = listWith(ctx, root, untracked)
		timeline.Mark("files listed")
	}()
	return l
}

// Root is the directory being listed.
func (l *Listing) Root() string { return l.root }

// Wait waits for the listing to finish and returns what List would.
func (l *Listing) Wait() (*Result, error) {
	<-l.done
	return l.res, l.err
}
