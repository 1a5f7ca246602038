//go:build sqlite_fts5

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Sets of repositories, fixed in repos.tsv before any tuning: rankings
// are tuned on the tuning set and judged on the reporting set, and every
// report shows both.
const (
	setTune   = "tune"
	setReport = "report"
)

// repo is one line of repos.tsv, or a checkout named on the command line
// that the file does not list.
type repo struct {
	name     string // the checkout's directory name
	source   string // github:owner/name
	commit   string // the pinned commit; "" when not pinned
	language string
	set      string // setTune, setReport, or "" for an unlisted checkout
	root     string // the checkout
}

// readRepos reads the tab-separated list: name, source, pinned commit,
// language, set; # starts a comment line.
func readRepos(path string) ([]repo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("repository list: %w (give -repos the path of bench/retrieval/repos.tsv)", err)
	}
	defer f.Close()
	var out []repo
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 tab-separated columns (name, source, commit, language, set), have %d", path, line, len(cols))
		}
		r := repo{name: cols[0], source: cols[1], commit: cols[2], language: cols[3], set: cols[4]}
		if r.set != setTune && r.set != setReport {
			return nil, fmt.Errorf("%s:%d: set %q is neither %s nor %s", path, line, r.set, setTune, setReport)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// selectRepos returns the checkouts to measure: the ones named in args
// (with their line of the list when it has their directory name), or
// every listed repository under dir when args is empty.
func selectRepos(listed []repo, dir string, args []string) ([]repo, error) {
	if len(args) == 0 {
		out := make([]repo, len(listed))
		for i, r := range listed {
			r.root = filepath.Join(dir, r.name)
			out[i] = r
		}
		return out, nil
	}
	byName := map[string]repo{}
	for _, r := range listed {
		byName[r.name] = r
	}
	var out []repo
	for _, a := range args {
		root, err := filepath.Abs(a)
		if err != nil {
			return nil, err
		}
		r, ok := byName[filepath.Base(root)]
		if !ok {
			r = repo{name: filepath.Base(root)}
		}
		r.root = root
		out = append(out, r)
	}
	return out, nil
}

// checkCheckout fails unless the checkout is at its pinned commit with no
// changes to tracked files: the numbers are the pinned history's.
func checkCheckout(r repo) error {
	if r.commit == "" {
		return nil
	}
	head, err := gitHead(r.root)
	if err != nil {
		return fmt.Errorf("%w (run bench/retrieval/fetch.sh)", err)
	}
	if head != r.commit {
		return fmt.Errorf("%s is at %.12s, repos.tsv pins %.12s: run bench/retrieval/fetch.sh", r.root, head, r.commit)
	}
	clean, err := gitClean(r.root)
	if err != nil {
		return err
	}
	if !clean {
		return fmt.Errorf("%s has changes to tracked files: run git -C %s checkout -f %s", r.root, r.root, r.commit)
	}
	return nil
}
