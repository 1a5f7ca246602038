package main

import (
	"go/token"
	"path/filepath"
	"strings"
)

// excludedDirs are directory names whose trees are not the repository's own
// source: vendored or generated code and test inputs.
var excludedDirs = map[string]bool{
	"vendor":       true,
	"node_modules": true,
	"third_party":  true,
	"testdata":     true,
}

// repository maps positions to repository-relative files and decides which
// files belong to the corpus.
type repository struct {
	root  string // absolute, symlinks resolved
	fset  *token.FileSet
	files map[string]fileInRepo // cache of relative, by absolute name
}

type fileInRepo struct {
	rel string
	ok  bool
}

// relative returns the '/'-separated path of an absolute file name inside
// the repository, or false when the file is outside it or in an excluded
// tree.
func (r *repository) relative(filename string) (string, bool) {
	if f, seen := r.files[filename]; seen {
		return f.rel, f.ok
	}
	rel, ok := r.resolve(filename)
	r.files[filename] = fileInRepo{rel, ok}
	return rel, ok
}

func (r *repository) resolve(filename string) (string, bool) {
	if filename == "" {
		return "", false
	}
	if resolved, err := filepath.EvalSymlinks(filename); err == nil {
		filename = resolved
	}
	rel, err := filepath.Rel(r.root, filename)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	for _, part := range strings.Split(rel, "/") {
		if excludedDirs[part] {
			return "", false
		}
	}
	return rel, true
}

// position maps a token position to a repository file and line. It reads
// the file's own lines, ignoring //line directives (generated parsers point
// them at grammar files), except when only the directive leads into the
// repository: cgo-processed files live in the build cache and point back to
// the source file.
func (r *repository) position(pos token.Pos) (string, int, bool) {
	if !pos.IsValid() {
		return "", 0, false
	}
	raw := r.fset.PositionFor(pos, false)
	if rel, ok := r.relative(raw.Filename); ok {
		return rel, raw.Line, true
	}
	adj := r.fset.PositionFor(pos, true)
	if adj.Filename != raw.Filename {
		if rel, ok := r.relative(adj.Filename); ok {
			return rel, adj.Line, true
		}
	}
	return "", 0, false
}
