package agentsetup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options are what every setup action shares.
type Options struct {
	Env Env
	// Home is $GITNEXUS_HOME: the manifest and the backups live there.
	Home string
	// Binary is the absolute path of the gitnexus executable to register.
	Binary string
	// DryRun reports what would change and writes nothing.
	DryRun bool
	// Now stamps backups; time.Now when nil.
	Now func() time.Time
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// readFile returns a file's bytes and whether it exists.
func readFile(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return b, true, nil
}

// backup copies a file's current bytes to $GITNEXUS_HOME/backups and
// returns the copy's path.
func (o *Options) backup(label, path string, data []byte) (string, error) {
	dir := filepath.Join(o.Home, "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create backup directory: %w", err)
	}
	base := o.now().UTC().Format("20060102T150405Z") + "-" + label + "-" + strings.TrimPrefix(filepath.Base(path), ".")
	name := filepath.Join(dir, base)
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			name = filepath.Join(dir, fmt.Sprintf("%s.%d", base, i))
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return "", fmt.Errorf("back up %s: %w", path, werr)
		}
		return name, nil
	}
}

// mkdirs creates dir and its missing parents and returns those it created,
// outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append([]string{d}, missing...)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	return missing, nil
}

// removeDirs removes the directories setup created, innermost first, as
// long as they are empty.
func removeDirs(dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		if os.Remove(dirs[i]) != nil {
			return
		}
	}
}

// writeAtomic replaces path with data through a temporary file in the same
// directory. A symbolic link is followed, so a configuration file kept
// elsewhere (dotfiles) is updated where it lives.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
