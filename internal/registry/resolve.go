package registry

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Resolution errors; the messages name what to do.
var (
	ErrNoRepos   = errors.New("No indexed repositories. Run: gitnexus analyze")
	ErrNotFound  = errors.New("repository not found")
	ErrAmbiguous = errors.New("repository reference is ambiguous")
)

// Resolve finds the repository a user or agent means by ref, in this order:
// exact id; name, case-insensitive; absolute path (or a path inside the
// repository); unique substring of a name. With an empty ref it takes the
// repository containing cwd, else the only one indexed. param names the
// parameter in error messages ("repo" for tools, "--repo" for the CLI).
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
			if e, ok := containing(entries, cwd); ok {
				return e, nil
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
	if filepath.IsAbs(ref) {
		if e, ok := containing(entries, filepath.Clean(ref)); ok {
			return e, nil
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
