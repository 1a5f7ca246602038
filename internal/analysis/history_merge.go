package analysis

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	"gitnexus.dev/gitnexus/internal/gitcmd"
)

// A first-parent history diffs a merge against its first parent, so the
// merge stands for everything its branch changed: "Merge branch 'x'" where
// the author of the change wrote "Fix the parser". For a symbol a merge
// changed, git itself says which commits of the merged side made the
// change: `git log -L<start>,<end>:<path> <merge> --not <merge>^1` follows
// the symbol's lines at the merge back through the commits the merge
// brought in. A merge that deleted the symbol has no lines there; the
// commits of the merged side that changed its file stand in.

// MaxMergesAttributed bounds the merges of one answer whose commits are
// looked up (each is one git process, a few milliseconds).
const MaxMergesAttributed = 20

// mergeWorkers run the lookups of one answer side by side.
const mergeWorkers = 4

// AttributeMerges fills MergedFrom of the answer's merge commits: the
// commits of the merged side that made the change. A lookup git cannot do
// (a shallow clone without the merged side) leaves the entry as it is.
func AttributeMerges(ctx context.Context, root string, x *HistoryIndex, res *SymbolHistoryResult) {
	if x.H.Settings.AllBranches {
		return // every branch's commits are in the history: merges change nothing of their own
	}
	var todo []int
	for i := range res.Commits {
		c := &res.Commits[i]
		if j, ok := x.commit[c.Hash]; ok && x.H.Commits[j].IsMerge() && len(todo) < MaxMergesAttributed {
			todo = append(todo, i)
		}
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(mergeWorkers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c := &res.Commits[i]
				from, err := mergedCommits(ctx, root, c)
				if err == nil {
					c.MergedFrom = from
				}
			}
		}()
	}
	for _, i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
}

// mergedCommits asks git for the commits of merge c's merged side that
// changed the symbol's lines (or, for a deletion, its file), newest first.
func mergedCommits(ctx context.Context, root string, c *SymbolCommit) ([]CommitInfo, error) {
	if strings.ContainsAny(c.Path, "\n\x00") || strings.HasPrefix(c.Hash, "-") {
		return nil, fmt.Errorf("not a path")
	}
	args := []string{"log", "--no-merges", "-s", "--format=%x01%H%x00%h%x00%an%x00%ae%x00%aI%x00%s"}
	if c.Change == "deleted" || c.StartLine <= 0 || c.EndLine < c.StartLine {
		args = append(args, c.Hash, "--not", c.Hash+"^1", "--", c.Path)
	} else {
		args = append(args, fmt.Sprintf("-L%d,%d:%s", c.StartLine, c.EndLine, c.Path), c.Hash, "--not", c.Hash+"^1")
	}
	out, err := gitcmd.Output(ctx, root, args...)
	if err != nil {
		return nil, err
	}
	var from []CommitInfo
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "\x01") {
			continue // -L's patch lines, when git prints them
		}
		f := strings.Split(line[1:], "\x00")
		if len(f) != 6 || f[0] == c.Hash {
			continue
		}
		from = append(from, CommitInfo{Hash: f[0], ShortHash: f[1], Author: f[2], Email: f[3], Date: f[4], Subject: f[5]})
	}
	return from, sc.Err()
}
