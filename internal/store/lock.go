package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrLocked means another process is writing the index.
var ErrLocked = errors.New("another gitnexus analyze is running on this repository")

// Lock takes the repository's writer lock (an flock on .gitnexus/analyze.lock
// holding the owner's pid). With wait 0 it fails at once with ErrLocked,
// naming the owner; otherwise it waits up to wait. The lock dies with the
// process, so a killed run never leaves the repository locked.
//
// When the index directory did not exist and still holds no index when
// the lock is let go (the run failed or was interrupted before it wrote
// one), unlock removes what the run left there (the lock, .gitignore,
// temporary files) and the directory when that empties it: a run that
// changed nothing leaves nothing behind.
func Lock(repo string, wait time.Duration) (unlock func(), err error) {
	dir := Dir(repo)
	_, statErr := os.Stat(dir)
	madeDir := errors.Is(statErr, os.ErrNotExist)
	path := filepath.Join(dir, LockName)
	deadline := time.Now().Add(wait)
	var f *os.File
	for f == nil {
		if err := ensureDir(dir); err != nil {
			return nil, err
		}
		if f, err = lockFile(path, deadline); err != nil {
			return nil, err
		}
		// A run that gave up removed its lock file (unlock below) while
		// this one waited on it: a lock on a file no longer at the path
		// keeps no one out. Take the lock again on the file that is.
		if !stillAt(f, path) {
			f.Close()
			f = nil
		}
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		_ = f.Truncate(0)
		if madeDir {
			if _, err := os.Stat(filepath.Join(dir, DBName)); errors.Is(err, os.ErrNotExist) {
				removeUnfinishedDir(dir) // under the lock, as clean does
			}
		}
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// lockFile opens the lock file and takes its flock, trying until
// deadline.
func lockFile(path string, deadline time.Time) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			owner := readOwner(path)
			f.Close()
			if owner != "" {
				return nil, fmt.Errorf("%w (pid %s); wait for it to finish or use --wait", ErrLocked, owner)
			}
			return nil, fmt.Errorf("%w; wait for it to finish or use --wait", ErrLocked)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stillAt reports whether the open file f is the file at path.
func stillAt(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// removeUnfinishedDir removes what a run that wrote no index left in the
// index directory it created, then the directory if nothing else is in it.
// The .gitignore stays while anything else does: it keeps that out of git.
func removeUnfinishedDir(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	for _, name := range append(left, filepath.Join(dir, LockName)) {
		_ = os.Remove(name)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 1 && entries[0].Name() == ".gitignore" {
		_ = os.Remove(filepath.Join(dir, ".gitignore"))
	}
	_ = os.Remove(dir) // only when empty
}

func readOwner(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
