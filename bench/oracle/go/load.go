package main

import (
	"fmt"
	"go/token"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadUnit is one `go list` invocation: a module directory and its
// patterns. A repository has one unit per go.mod; the Go standard library
// has `std` (and `cmd`, its own module under src/cmd).
type loadUnit struct {
	dir      string
	patterns []string
}

// loadUnits finds the units of a repository. root must be absolute with
// symlinks resolved.
func loadUnits(root string, withCmd bool) ([]loadUnit, error) {
	if goroot, ok := gorootSrc(); ok && goroot == root {
		units := []loadUnit{{dir: root, patterns: []string{"std"}}}
		if withCmd {
			units = append(units, loadUnit{dir: filepath.Join(root, "cmd"), patterns: []string{"cmd"}})
		}
		return units, nil
	}
	var units []loadUnit
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (excludedDirs[name] || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "go.mod" {
			units = append(units, loadUnit{dir: filepath.Dir(path), patterns: []string{"./..."}})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find modules under %s: %w", root, err)
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("find modules under %s: no go.mod", root)
	}
	return units, nil
}

// gorootSrc is $(go env GOROOT)/src with symlinks resolved.
func gorootSrc() (string, bool) {
	out, err := goEnv("GOROOT")
	if err != nil || out == "" {
		return "", false
	}
	src, err := filepath.EvalSymlinks(filepath.Join(out, "src"))
	return src, err == nil
}

// load type-checks the unit's packages with their tests. A module whose
// go.mod or go.sum is not tidy is loaded again with a tidied copy of both
// in a scratch directory (-modfile), leaving the repository untouched.
func load(u loadUnit, fset *token.FileSet) ([]*packages.Package, error) {
	env := append(os.Environ(), "GOWORK=off")
	pkgs, err := loadWith(u, fset, env)
	if err == nil {
		return pkgs, nil
	}
	scratch, serr := os.MkdirTemp("", "gocallgraph-mod-")
	if serr != nil {
		return nil, fmt.Errorf("load %v in %s: %w", u.patterns, u.dir, err)
	}
	defer os.RemoveAll(scratch)
	modfile := filepath.Join(scratch, "go.mod")
	if cerr := copyModFiles(u.dir, scratch); cerr != nil {
		return nil, fmt.Errorf("load %v in %s: %w (and %w)", u.patterns, u.dir, err, cerr)
	}
	log.Printf("%s: retrying with -mod=mod on a copy of go.mod: %v", u.dir, err)
	env = append(env, "GOFLAGS=-mod=mod -modfile="+modfile)
	pkgs, err = loadWith(u, fset, env)
	if err != nil {
		return nil, fmt.Errorf("load %v in %s: %w", u.patterns, u.dir, err)
	}
	return pkgs, nil
}

func loadWith(u loadUnit, fset *token.FileSet, env []string) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   u.dir,
		Tests: true,
		Fset:  fset,
		Env:   env,
	}
	return packages.Load(cfg, u.patterns...)
}

// copyModFiles copies go.mod and, when present, go.sum into dir.
func copyModFiles(moduleDir, dir string) error {
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(moduleDir, name))
		if err != nil {
			if name == "go.sum" && os.IsNotExist(err) {
				continue
			}
			return fmt.Errorf("copy %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("copy %s: %w", name, err)
		}
	}
	return nil
}

// selectPackages keeps one variant of each package: the test variant
// "p [p.test]" (p's files plus its in-package tests) in place of p when it
// exists, external test packages, and no generated test mains.
func selectPackages(pkgs []*packages.Package) []*packages.Package {
	hasTestVariant := make(map[string]bool)
	for _, p := range pkgs {
		if p.ForTest != "" && p.ID == p.ForTest+" ["+p.ForTest+".test]" {
			hasTestVariant[p.ForTest] = true
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		switch {
		case strings.HasSuffix(p.ID, ".test"):
			continue // generated test main
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
			continue // superseded by its test variant
		}
		out = append(out, p)
	}
	return out
}
