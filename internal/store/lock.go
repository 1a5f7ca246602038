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
func Lock(repo string, wait time.Duration) (unlock func(), err error) {
	dir := Dir(repo)
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
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
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func readOwner(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
