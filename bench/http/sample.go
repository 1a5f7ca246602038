package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// fileCount is a file present at HEAD and how many first-parent commits
// changed it.
type fileCount struct {
	path    string
	commits int
}

// busyFiles lists the files present at HEAD that at least min commits of
// the first-parent history changed, most changed first.
func busyFiles(repo string, min int) ([]fileCount, error) {
	log, err := gitOut(repo, "log", "--first-parent", "--no-renames", "--format=", "--name-only")
	if err != nil {
		return nil, err
	}
	tracked, err := gitOut(repo, "ls-files")
	if err != nil {
		return nil, err
	}
	atHead := map[string]bool{}
	for _, p := range strings.Split(tracked, "\n") {
		atHead[p] = true
	}
	counts := map[string]int{}
	for _, p := range strings.Split(log, "\n") {
		if p != "" && atHead[p] {
			counts[p]++
		}
	}
	var out []fileCount
	for p, n := range counts {
		if n >= min {
			out = append(out, fileCount{p, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].commits != out[j].commits {
			return out[i].commits > out[j].commits
		}
		return out[i].path < out[j].path
	})
	if len(out) == 0 {
		return nil, fmt.Errorf("no file of %s has %d commits or more: lower -min-commits", repo, min)
	}
	return out, nil
}

func gitOut(repo string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return string(out), nil
}

// calledSymbols asks the index (gitnexus cypher) for the n functions and
// methods with the most callers.
func calledSymbols(bin, home, repo string, n int) ([]string, error) {
	q := fmt.Sprintf("MATCH (f)<-[:CALLS]-(c) WHERE f:Function OR f:Method "+
		"RETURN f.id AS id, count(c) AS callers ORDER BY callers DESC, id LIMIT %d", n)
	cmd := exec.Command(bin, "cypher", "--repo", repo, "--json", "--limit", fmt.Sprint(n), q)
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("gitnexus cypher: %w", err)
	}
	var res struct {
		Rows []struct {
			ID string `json:"id"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("gitnexus cypher: %w", err)
	}
	var ids []string
	for _, r := range res.Rows {
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("the index of %s has no function or method with callers", repo)
	}
	return ids, nil
}

// fileCommitRequests asks for page commits of every file at every offset
// from 0 to its commit count - 1 (each request distinct, so each one is a
// cache miss the first time): offset 0 of each file first, then offset 1,
// and so on.
func fileCommitRequests(base, repo string, files []fileCount, page int) []request {
	var out []request
	for offset := 0; ; offset++ {
		added := false
		for _, f := range files {
			if offset >= f.commits {
				continue
			}
			segs := strings.Split(f.path, "/")
			for i, s := range segs {
				segs[i] = url.PathEscape(s)
			}
			u := fmt.Sprintf("%s/api/v1/file/%s/commits?limit=%d&offset=%d&repo=%s", base, strings.Join(segs, "/"),
				page, offset, url.QueryEscape(repo))
			out = append(out, request{method: "GET", url: u})
			added = true
		}
		if !added {
			return out
		}
	}
}

// impactRequests cycles through the symbols: n impact calls, upstream
// over CALLS to depth 3.
func impactRequests(base, repo string, symbols []string, n int) []request {
	out := make([]request, 0, n)
	for i := 0; i < n; i++ {
		body, _ := json.Marshal(map[string]any{"target_uid": symbols[i%len(symbols)], "direction": "upstream",
			"maxDepth": 3, "relationTypes": []string{"CALLS"}, "repo": repo})
		out = append(out, request{method: "POST", url: base + "/api/v1/tools/impact", body: body})
	}
	return out
}
