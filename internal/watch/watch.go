// Package watch reports the file changes in a repository that can change
// its index: source edits anywhere in the work tree, new directories, and
// git moving HEAD or a ref (commit, checkout, merge, pull). Git's other
// internals, the index directory (.gitnexus/), vendored trees and the
// directories git ignores are not watched.
package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/store"
)

// Watcher watches one repository. Use New, then Run.
type Watcher struct {
	root      string
	gitDir    string // "" outside git
	commonDir string // where refs live (the main repository's git dir for a worktree)
	fs        *fsnotify.Watcher
	ignored   map[string]bool // directories git ignores, relative to root, slash-separated
}

// New watches the repository at root: every directory of the work tree but
// the ignored ones, and git's HEAD and refs.
func New(ctx context.Context, root string) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	w := &Watcher{root: root, fs: fw, ignored: map[string]bool{}}
	if dir, err := gitPath(ctx, root, "--absolute-git-dir"); err == nil {
		w.gitDir = dir
		w.commonDir = dir
		if common, err := gitPath(ctx, root, "--git-common-dir"); err == nil {
			w.commonDir = common
		}
		w.ignored = ignoredDirs(ctx, root)
	}
	if err := w.addTree(root); err != nil {
		fw.Close()
		return nil, err
	}
	if w.gitDir != "" {
		// HEAD (and packed-refs) are files in the git directory; refs are
		// a tree in the common one.
		for _, dir := range []string{w.gitDir, w.commonDir} {
			if err := fw.Add(dir); err != nil {
				fw.Close()
				return nil, fmt.Errorf("watch %s: %w", dir, err)
			}
		}
		if err := w.addTree(filepath.Join(w.commonDir, "refs")); err != nil {
			fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// Close stops watching.
func (w *Watcher) Close() error { return w.fs.Close() }

// GitLocked reports whether git is in the middle of changing the work
// tree (its index lock exists): a checkout in progress.
func (w *Watcher) GitLocked() bool {
	if w.gitDir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(w.gitDir, "index.lock"))
	return err == nil
}

// Run calls changed with the path of every relevant change until ctx ends
// or the watch fails. A lost event (the kernel's queue overflowed) is
// reported as a change of the root.
func (w *Watcher) Run(ctx context.Context, changed func(path string)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.fs.Events:
			if !ok {
				return nil
			}
			if w.relevant(ev) {
				changed(ev.Name)
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				changed(w.root)
				continue
			}
			return fmt.Errorf("watch %s: %w", w.root, err)
		}
	}
}

// relevant decides whether an event can change the index, and follows new
// directories.
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	path := ev.Name
	if w.gitDir != "" {
		if in(path, w.gitDir) || in(path, w.commonDir) {
			return w.gitRelevant(path, ev)
		}
	}
	if in(path, store.Dir(w.root)) || w.skipDir(path) {
		return false
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			w.newDir(path)
			return !w.skipDir(path)
		}
	}
	return true
}

// gitRelevant keeps HEAD, packed-refs and refs/ changes (not their lock
// files) and follows new ref directories (refs/heads/feature/).
func (w *Watcher) gitRelevant(path string, ev fsnotify.Event) bool {
	if strings.HasSuffix(path, ".lock") {
		return false
	}
	refs := filepath.Join(w.commonDir, "refs")
	switch {
	case path == filepath.Join(w.gitDir, "HEAD"), path == filepath.Join(w.commonDir, "packed-refs"):
		return true
	case in(path, refs):
		if ev.Has(fsnotify.Create) {
			if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
				_ = w.addTree(path)
			}
		}
		return true
	}
	return false
}

// skipDir reports whether path is in a directory that is not watched.
func (w *Watcher) skipDir(path string) bool {
	rel, err := filepath.Rel(w.root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return true
	}
	rel = filepath.ToSlash(rel)
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		if p == ".git" || repofiles.IsVendoredDir(p) || w.ignored[strings.Join(parts[:i+1], "/")] {
			return true
		}
	}
	return false
}

// addTree watches dir and every directory below it that is watched.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // vanished or unreadable below: skip it
		}
		if !d.IsDir() {
			return nil
		}
		refs := w.commonDir != "" && in(p, w.commonDir)
		if !refs && p != w.root && (in(p, store.Dir(w.root)) || w.skipDir(p)) {
			return filepath.SkipDir
		}
		if err := w.fs.Add(p); err != nil {
			return fmt.Errorf("watch %s: %w (on Linux, raise fs.inotify.max_user_watches)", p, err)
		}
		return nil
	})
}

// newDir follows a directory made in the work tree, unless git ignores it.
func (w *Watcher) newDir(path string) {
	if w.gitDir != "" {
		rel, err := filepath.Rel(w.root, path)
		if err == nil {
			cmd := exec.Command("git", "check-ignore", "-q", "--", rel)
			cmd.Dir = w.root
			if cmd.Run() == nil { // exit 0: ignored
				w.ignored[filepath.ToSlash(rel)] = true
				return
			}
		}
	}
	_ = w.addTree(path) // a directory vanishing meanwhile is no error
}

// in reports whether path is dir or inside it.
func in(path, dir string) bool {
	if dir == "" {
		return false
	}
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// ignoredDirs lists the directories git ignores, with one git call (a
// directory made later is checked when it appears).
func ignoredDirs(ctx context.Context, root string) map[string]bool {
	out := map[string]bool{}
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	cmd.Dir = root
	b, err := cmd.Output()
	if err != nil {
		return out
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if s := string(e); strings.HasSuffix(s, "/") {
			out[strings.TrimSuffix(s, "/")] = true
		}
	}
	return out
}

func gitPath(ctx context.Context, root, flag string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", flag)
	cmd.Dir = root
	b, err := cmd.Output()
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Clean(p), nil
}
