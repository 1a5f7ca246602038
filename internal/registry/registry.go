// Package registry keeps the list of indexed repositories in
// $GITNEXUS_HOME/registry.json (default ~/.gitnexus). Every change is a
// read-modify-write under an exclusive file lock, written to a temporary
// file and renamed into place, so concurrent `analyze` runs never lose an
// entry and readers never see a torn file.
package registry

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// Version of the registry file format.
const Version = 1

// Stats are the counts an agent sees before opening an index.
type Stats struct {
	Files       int `json:"files"`
	Nodes       int `json:"nodes"`
	Edges       int `json:"edges"`
	Functions   int `json:"functions"`
	Communities int `json:"communities"`
	Processes   int `json:"processes"`
}

// Entry is one indexed repository.
type Entry struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Path        string    `json:"path"`
	StoragePath string    `json:"storagePath"`
	IndexedAt   time.Time `json:"indexedAt"`
	LastCommit  string    `json:"lastCommit,omitempty"`
	Stats       Stats     `json:"stats"`
}

type file struct {
	Version int     `json:"version"`
	Repos   []Entry `json:"repos"`
}

// Home returns the directory holding the registry: $GITNEXUS_HOME, or
// ~/.gitnexus.
func Home() (string, error) {
	if h := os.Getenv("GITNEXUS_HOME"); h != "" {
		return filepath.Abs(h)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory (set GITNEXUS_HOME): %w", err)
	}
	return filepath.Join(home, ".gitnexus"), nil
}

// File returns the path of the registry file.
func File() (string, error) { return path() }

func path() (string, error) {
	h, err := Home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, "registry.json"), nil
}

// List returns the registered repositories sorted by id.
func List() ([]Entry, error) {
	p, err := path()
	if err != nil {
		return nil, err
	}
	f, err := read(p)
	if err != nil {
		return nil, err
	}
	return f.Repos, nil
}

func read(p string) (*file, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return &file{Version: Version}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read registry: %w", err)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("registry %s is not valid JSON (%v): fix or delete it, then run gitnexus analyze again", p, err)
	}
	sort.Slice(f.Repos, func(i, j int) bool { return f.Repos[i].ID < f.Repos[j].ID })
	return &f, nil
}

// update runs fn on the registry under the lock and writes the result.
func update(fn func(f *file) error) error {
	p, err := path()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	lock := flock.New(p+".lock", flock.SetFlag(os.O_RDWR|os.O_CREATE), flock.SetPermissions(0o644))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("lock registry: %w", err)
	}
	defer lock.Unlock() //nolint:errcheck
	f, err := read(p)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		return err
	}
	f.Version = Version
	sort.Slice(f.Repos, func(i, j int) bool { return f.Repos[i].ID < f.Repos[j].ID })
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.tmp-%d", p, os.Getpid())
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write registry: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write registry: %w", err)
	}
	return nil
}

// Upsert records a repository (by absolute path) and returns its entry with
// the id assigned. A repository keeps its id across re-indexing. The id is
// the lower-cased name; when another repository already has that id, the
// newcomer gets "<name>-" plus six characters of the base64url encoding of
// a SHA-256 of its absolute path (a hash, so that paths sharing a prefix
// still differ).
func Upsert(e Entry) (Entry, error) {
	var out Entry
	err := update(func(f *file) error {
		for i := range f.Repos {
			if f.Repos[i].Path == e.Path {
				e.ID = f.Repos[i].ID
				f.Repos[i] = e
				out = e
				return nil
			}
		}
		e.ID = strings.ToLower(e.Name)
		for _, r := range f.Repos {
			if r.ID == e.ID {
				e.ID = strings.ToLower(e.Name) + "-" + PathTag(e.Path)
				break
			}
		}
		f.Repos = append(f.Repos, e)
		out = e
		return nil
	})
	return out, err
}

// PathTag is the six-character tag that tells apart repositories sharing a
// name.
func PathTag(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:6]
}

// Remove deletes the entry for the repository at abs path; it reports
// whether there was one.
func Remove(abs string) (bool, error) {
	removed := false
	err := update(func(f *file) error {
		kept := f.Repos[:0]
		for _, r := range f.Repos {
			if r.Path == abs {
				removed = true
				continue
			}
			kept = append(kept, r)
		}
		f.Repos = kept
		return nil
	})
	return removed, err
}
