package repofiles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/timeline"
)

// Causes of a listed path being left out, as counted in Result.Skipped (and
// reported in the summary and meta.json). A file may also be found vanished
// or unreadable when it is read later.
const (
	SkipVendored       = "vendored"
	SkipIgnored        = "gitnexusignore"
	SkipSymlinkOutside = "symlink-outside"
	SkipSymlinkLoop    = "symlink-loop-or-broken"
	SkipSymlinkInside  = "symlink-inside"
	SkipUnreadable     = "unreadable"
	SkipVanished       = "vanished"
	SkipNotRegular     = "not-regular"
)

// Result is the list of files to read, and what was skipped.
type Result struct {
	Files []string // repository-relative, sorted
	// Infos are the files' lstat results (regular files: their stat),
	// by position in Files, taken as they were listed.
	Infos   []fs.FileInfo
	Skipped map[string]int // by cause (Skip*)
	Git     bool           // listed by git
	// Keeps reports whether a path, listed or not, would be indexed by its
	// location: not our own state, not vendored, not ignored. Not safe for
	// concurrent use.
	Keeps func(rel string) bool
}

// List lists the files under root: with git when root is in a work tree
// (tracked plus untracked-but-not-ignored), otherwise by walking the
// directory and honouring .gitignore files. .gitnexusignore applies in both
// cases; vendored trees and symlinks are skipped and counted.
func List(ctx context.Context, root string) (*Result, error) { return listWith(ctx, root, nil) }

// lstatResult is one path's os.Lstat.
type lstatResult struct {
	fi  fs.FileInfo
	err error
}

// listWith is List with the untracked files from git status
// (StartListing).
func listWith(ctx context.Context, root string, untracked func() ([]string, bool)) (*Result, error) {
	res := &Result{Skipped: map[string]int{}}
	var listed []string
	var err error
	var early map[string]lstatResult // the tracked files' lstat, taken while git status runs
	if untracked != nil {
		listed, err = gitListArgs(ctx, root, "ls-files", "-c", "-z")
		timeline.Mark("tracked files listed")
		if err == nil {
			early = make(map[string]lstatResult, len(listed))
			for _, rel := range listed {
				if isOwnState(rel) || inVendoredTree(rel) {
					continue
				}
				fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
				early[rel] = lstatResult{fi, err}
			}
			timeline.Mark("tracked files looked at")
			others, ok := untracked()
			if !ok {
				others, err = gitListArgs(ctx, root, "ls-files", "-o", "--exclude-standard", "-z")
			}
			listed = append(listed, others...)
		}
	} else {
		listed, err = gitList(ctx, root)
	}
	timeline.Mark("git ls-files read")
	if err == nil {
		res.Git = true
	} else {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		listed, err = dirList(ctx, root)
		if err != nil {
			return nil, err
		}
	}
	ign := &ignoreRules{}
	loadIgnoreFiles(root, listed, ign)
	ignoredDirs := map[string]bool{}
	dirIgnored := func(dir string) bool {
		if dir == "" {
			return false
		}
		if v, ok := ignoredDirs[dir]; ok {
			return v
		}
		v := dirIgnoredUncached(ign, dir, ignoredDirs)
		ignoredDirs[dir] = v
		return v
	}
	res.Keeps = func(rel string) bool {
		return !isOwnState(rel) && !inVendoredTree(rel) && !dirIgnored(path.Dir(rel)) && !ign.ignored(rel, false)
	}
	for _, rel := range listed {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if isOwnState(rel) {
			continue
		}
		if inVendoredTree(rel) {
			res.Skipped[SkipVendored]++
			continue
		}
		if dirIgnored(path.Dir(rel)) || ign.ignored(rel, false) {
			res.Skipped[SkipIgnored]++
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(rel))
		st, ok := early[rel]
		if !ok {
			st.fi, st.err = os.Lstat(abs)
		}
		fi, err := st.fi, st.err
		switch {
		case errors.Is(err, fs.ErrNotExist):
			res.Skipped[SkipVanished]++
			continue
		case err != nil:
			res.Skipped[SkipUnreadable]++
			continue
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			res.Skipped[classifySymlink(root, abs)]++
			continue
		}
		if !fi.Mode().IsRegular() {
			res.Skipped[SkipNotRegular]++
			continue
		}
		res.Files = append(res.Files, rel)
		res.Infos = append(res.Infos, fi)
	}
	sort.Sort(byPath{res})
	return res, nil
}

// byPath sorts a listing's files with their infos.
type byPath struct{ *Result }

func (b byPath) Len() int           { return len(b.Files) }
func (b byPath) Less(i, j int) bool { return b.Files[i] < b.Files[j] }
func (b byPath) Swap(i, j int) {
	b.Files[i], b.Files[j] = b.Files[j], b.Files[i]
	b.Infos[i], b.Infos[j] = b.Infos[j], b.Infos[i]
}

func dirIgnoredUncached(ign *ignoreRules, dir string, memo map[string]bool) bool {
	if parent := path.Dir(dir); parent != "." && parent != "/" {
		if v, ok := memo[parent]; ok {
			if v {
				return true
			}
		} else if v := dirIgnoredUncached(ign, parent, memo); v {
			memo[parent] = true
			return true
		} else {
			memo[parent] = false
		}
	}
	return ign.ignored(dir, true)
}

// isOwnState reports paths inside our own .gitnexus directory or .git.
func isOwnState(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return first == ".gitnexus" || first == ".git"
}

// classifySymlink tells why a symlink is skipped.
func classifySymlink(root, abs string) string {
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return SkipSymlinkLoop
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	if target != realRoot && !strings.HasPrefix(target, realRoot+string(filepath.Separator)) {
		return SkipSymlinkOutside
	}
	return SkipSymlinkInside
}

// gitList runs `git ls-files -co --exclude-standard -z` in root.
func gitList(ctx context.Context, root string) ([]string, error) {
	return gitListArgs(ctx, root, "ls-files", "-co", "--exclude-standard", "-z")
}

// gitListArgs runs git ls-files with args in root and returns the paths
// it lists, each once (an unmerged path is listed once per stage).
func gitListArgs(ctx context.Context, root string, args ...string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotePath=false"}, args...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) == 0 {
			continue
		}
		s := string(p)
		if !seen[s] {
			seen[s] = true
			files = append(files, s)
		}
	}
	return files, nil
}

// dirList walks a directory that is not a git work tree, honouring
// .gitignore files the way git would, and never following symlinks.
func dirList(ctx context.Context, root string) ([]string, error) {
	ign := &ignoreRules{}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			files = append(files, rel) // reported as unreadable later
			return nil
		}
		if rel == "." {
			loadIgnoreFile(root, "", ".gitignore", ign)
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == ".gitnexus" || ign.ignored(rel, true) {
				return fs.SkipDir
			}
			loadIgnoreFile(root, rel, ".gitignore", ign)
			return nil
		}
		if ign.ignored(rel, false) {
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// loadIgnoreFiles reads every .gitnexusignore among the listed files (and
// at the root, where it may itself be ignored by git).
func loadIgnoreFiles(root string, listed []string, ign *ignoreRules) {
	loadIgnoreFile(root, "", ".gitnexusignore", ign)
	for _, rel := range listed {
		if path.Base(rel) == ".gitnexusignore" && strings.Contains(rel, "/") {
			loadIgnoreFile(root, path.Dir(rel), ".gitnexusignore", ign)
		}
	}
}

func loadIgnoreFile(root, dir, name string, ign *ignoreRules) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), name))
	if err == nil {
		ign.add(dir, string(b))
	}
}
