package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked means another process is writing the index.
var ErrLocked = errors.New("another gitnexus analyze is running on this repository")

// Lock takes the repository's writer lock (a lock on .gitnexus/analyze.lock,
// which holds the owner's pid). With wait 0 it fails at once with ErrLocked,
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
	var (
		lock  *flock.Flock
		owner *os.File // the locked file, to write the owner's pid into
	)
	for gone := 0; lock == nil; {
		if err := ensureDir(dir); err != nil {
			return nil, err
		}
		lock, err = lockFile(path, deadline)
		if errors.Is(err, fs.ErrNotExist) && gone < 10 {
			gone++ // the run we waited for removed the directory: make it again
			continue
		}
		if err != nil {
			return nil, err
		}
		// A run that gave up removed its lock file (unlock below) while
		// this one waited on it: a lock on a file no longer at the path
		// keeps no one out. Take the lock again on the file that is.
		if owner = openIfLocked(lock, path); owner == nil {
			_ = lock.Unlock()
			lock = nil
		}
	}
	// A waiter retries by opening the path again, so it can hold the lock
	// on a new file while the run it waited for finishes removing its
	// directory (removeUnfinishedDir takes the .gitignore out before the
	// lock file for this): put back what it took.
	if err := ensureDir(dir); err != nil {
		owner.Close()
		_ = lock.Unlock()
		return nil, err
	}
	_ = owner.Truncate(0)
	_, _ = owner.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		_ = owner.Truncate(0)
		if madeDir {
			if _, err := os.Stat(filepath.Join(dir, DBName)); errors.Is(err, os.ErrNotExist) {
				removeUnfinishedDir(dir) // under the lock, as clean does
			}
		}
		owner.Close()
		_ = lock.Unlock()
	}, nil
}

// lockFile takes the lock on the file at path (created when missing),
// trying until deadline. The lock is an flock (LockFileEx on Windows) on
// the open file: it dies with the process.
func lockFile(path string, deadline time.Time) (*flock.Flock, error) {
	lock := flock.New(path, flock.SetFlag(os.O_RDWR|os.O_CREATE), flock.SetPermissions(0o644))
	for {
		ok, err := lock.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return lock, nil
		}
		if time.Now().After(deadline) {
			if owner := readOwner(path); owner != "" {
				return nil, fmt.Errorf("%w (pid %s); wait for it to finish or use --wait", ErrLocked, owner)
			}
			return nil, fmt.Errorf("%w; wait for it to finish or use --wait", ErrLocked)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// openIfLocked opens the file at path for writing when it is the file
// lock holds, and returns nil when it is not (or is gone).
func openIfLocked(lock *flock.Flock, path string) *os.File {
	locked, err := lock.Stat()
	if err != nil {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !os.SameFile(locked, fi) {
		f.Close()
		return nil
	}
	return f
}

// removeUnfinishedDir removes what a run that wrote no index left in the
// index directory it created, then the directory if nothing else is in it.
// The .gitignore stays while anything else does: it keeps that out of git.
// The lock file goes last but for the directory: a waiter that takes the
// lock on a new file once it is gone finds nothing more removed.
func removeUnfinishedDir(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	for _, name := range left {
		_ = os.Remove(name)
	}
	if entries, err := os.ReadDir(dir); err == nil && onlyGitignoreAndLock(entries) {
		_ = os.Remove(filepath.Join(dir, ".gitignore"))
	}
	_ = os.Remove(filepath.Join(dir, LockName))
	_ = os.Remove(dir) // only when empty
}

func onlyGitignoreAndLock(entries []os.DirEntry) bool {
	for _, e := range entries {
		if e.Name() != ".gitignore" && e.Name() != LockName {
			return false
		}
	}
	return true
}

func readOwner(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
