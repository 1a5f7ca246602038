package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Resolution errors; the messages name what to do.
var (
	ErrNoRepos   = errors.New("No indexed repositories. Run: gitnexus analyze")
	ErrNotFound  = errors.New("repository not found")
	ErrAmbiguous = errors.New("repository reference is ambiguous")
	// ErrNotIndexed: the call named no repository and was made inside a
	// git work tree that has no index; another repository is never
	// answered for instead.
	ErrNotIndexed = errors.New("repository not indexed")
)

// Resolve finds the repository a user or agent means by ref, in this order:
// exact id; name, case-insensitive; a path (absolute, or relative to cwd
// when it starts with "." or holds a "/"), the repository's or one inside
// it; unique substring of a name. With an empty ref it takes the
// repository containing cwd; when cwd is in a git work tree that is not
// indexed, it refuses (ErrNotIndexed) rather than answer for another
// repository; outside any work tree it takes the only one indexed. param
// names the parameter in error messages ("repo" for tools, "--repo" for
// the CLI).
func Resolve(entries []Entry, ref, cwd, param string) (Entry, error) {
	if len(entries) == 0 {
		return Entry{}, ErrNoRepos
	}
	names := func(es []Entry) string {
		var out []string
		for _, e := range es {
			out = append(out, e.ID)
		}
		return strings.Join(out, ", ")
	}
	if ref == "" {
		if cwd != "" {
			e, ok := containing(entries, cwd)
			root := workTreeRoot(cwd)
			switch {
			case ok && (root == "" || within(e.Path, root)):
				return e, nil
			case root != "":
				// In a work tree with no index (or a nested one inside an
				// indexed repository): never answer for another one.
				return Entry{}, resolveErr(ErrNotIndexed, "This repository (%s) is not indexed: run `gitnexus analyze %s`, "+
					"or name an indexed one with %s (indexed: %s)", root, root, param, names(entries))
			}
		}
		if len(entries) == 1 {
			return entries[0], nil
		}
		return Entry{}, resolveErr(ErrAmbiguous, "Multiple repositories indexed. Specify which one with the %q parameter: %s", param, names(entries))
	}
	for _, e := range entries {
		if e.ID == ref {
			return e, nil
		}
	}
	var byName []Entry
	for _, e := range entries {
		if strings.EqualFold(e.Name, ref) {
			byName = append(byName, e)
		}
	}
	if len(byName) == 1 {
		return byName[0], nil
	}
	if len(byName) > 1 {
		return Entry{}, resolveErr(ErrAmbiguous, "Repository %q is ambiguous: it names %d repositories: %s (use the id)", ref, len(byName), names(byName))
	}
	if path, ok := asPath(ref, cwd); ok {
		if e, ok := containing(entries, path); ok {
			return e, nil
		}
		if !filepath.IsAbs(ref) {
			return Entry{}, resolveErr(ErrNotFound, "No indexed repository at %s (%q): run `gitnexus analyze %s`. Available: %s", path, ref, path, names(entries))
		}
	}
	var sub []Entry
	low := strings.ToLower(ref)
	for _, e := range entries {
		if strings.Contains(strings.ToLower(e.Name), low) {
			sub = append(sub, e)
		}
	}
	switch len(sub) {
	case 1:
		return sub[0], nil
	case 0:
		return Entry{}, resolveErr(ErrNotFound, "Repository %q not found. Available: %s", ref, names(entries))
	}
	return Entry{}, resolveErr(ErrAmbiguous, "Repository %q is ambiguous: it matches %d repositories: %s", ref, len(sub), names(sub))
}

// asPath reads ref as a path: absolute, or relative to cwd when it starts
// with "." or holds a separator ("./app", "../app", "src/app").
func asPath(ref, cwd string) (string, bool) {
	if filepath.IsAbs(ref) {
		return filepath.Clean(ref), true
	}
	if cwd == "" || !(strings.HasPrefix(ref, ".") || strings.ContainsRune(ref, filepath.Separator)) {
		return "", false
	}
	return filepath.Join(cwd, ref), true
}

// workTreeRoot is the root of the git work tree dir is in: the nearest
// directory from dir up that has a .git entry (a directory, or the file
// of a worktree or submodule); "" when there is none.
func workTreeRoot(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// containing returns the repository whose path is p or contains p; the
// deepest wins when repositories nest.
func containing(entries []Entry, p string) (Entry, bool) {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	best := -1
	for i, e := range entries {
		if p == e.Path || strings.HasPrefix(p, e.Path+string(filepath.Separator)) {
			if best < 0 || len(e.Path) > len(entries[best].Path) {
				best = i
			}
		}
	}
	if best < 0 {
		return Entry{}, false
	}
	return entries[best], true
}

// resolveError prints its message alone but matches its kind with errors.Is.
type resolveError struct {
	kind error
	msg  string
}

func (e *resolveError) Error() string { return e.msg }
func (e *resolveError) Unwrap() error { return e.kind }

func resolveErr(kind error, format string, args ...any) error {
	return &resolveError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
