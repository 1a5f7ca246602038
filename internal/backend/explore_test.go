package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestExploreClusterAndProcess: the legacy explore call (context's alias)
// with type cluster or process answers what the cluster and process
// resources say, with the data as JSON; a name no community or process
// has lists the labels there are.
func TestExploreClusterAndProcess(t *testing.T) {
	b, _, _ := historyShop(t)
	ctx := context.Background()
	ov, err := b.CallTool(ctx, "overview", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	o := ov.Data.(analysis.OverviewResult)
	// The overview hides areas under five symbols: the fixture's are read
	// from the graph.
	if _, err := b.withRepo(ctx, "", func(s *Snapshot) (*Result, error) {
		o.Clusters = analysis.Clusters(s.Graph, 10, 1)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(o.Clusters) == 0 || len(o.Processes) == 0 {
		t.Fatalf("the fixture has %d clusters and %d processes: the test checks nothing", len(o.Clusters), len(o.Processes))
	}
	cases := []struct {
		typ, name string
		check     func(any) string // the label the data carries
	}{
		{"cluster", o.Clusters[0].Label, func(d any) string { c, _ := d.(analysis.ClusterDetail); return c.Label }},
		{"process", o.Processes[0].Label, func(d any) string { p, _ := d.(analysis.ProcessDetail); return p.Label }},
		{"process", o.Processes[0].UID, func(d any) string { p, _ := d.(analysis.ProcessDetail); return p.UID }},
	}
	for _, c := range cases {
		res, err := b.CallTool(ctx, "explore", map[string]any{"name": c.name, "type": c.typ})
		if err != nil {
			t.Fatalf("explore %s %q: %v", c.typ, c.name, err)
		}
		if got := c.check(res.Data); got != c.name {
			t.Errorf("explore %s %q: the data is %T for %q", c.typ, c.name, res.Data, got)
		}
		if !strings.Contains(res.Markdown(), strings.SplitN(o.Processes[0].Label, " ", 2)[0]) && c.typ == "process" {
			t.Errorf("explore process: the text does not name the process:\n%s", res.Markdown())
		}
	}
	_, err = b.CallTool(ctx, "explore", map[string]any{"name": "no such area", "type": "cluster"})
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), o.Clusters[0].Label) {
		t.Errorf("explore of an unknown cluster: %v; want a not-found error that lists %q", err, o.Clusters[0].Label)
	}
	// type symbol, or none, is context.
	res, err := b.CallTool(ctx, "explore", map[string]any{"name": "Store.Get", "type": "symbol"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Data.(analysis.ContextResult); !ok {
		t.Errorf("explore type symbol answered %T, not context's result", res.Data)
	}
}

// TestDetectChangesCut: a diff with more changed symbols than the limit
// lists the limit, says how many there are in all, and hints at a smaller
// diff.
func TestDetectChangesCut(t *testing.T) {
	newHome(t)
	root, _ := testrepo.HistoryShop(t)
	testrepo.IndexHistory(t, root)
	for _, f := range []string{"store/store.go", "cache/memo.go"} {
		p := filepath.Join(root, f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "return ", "return /* edited */ ")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := newBackend(t, Options{IdleTimeout: -1})
	res, err := b.CallTool(context.Background(), "detect_changes", map[string]any{"limit": 1})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(*analysis.ChangesResult)
	if !d.Truncated || len(d.ChangedSymbols) != 1 || d.Summary.ChangedCount < 2 {
		t.Fatalf("limit 1: truncated %v, %d listed, %d changed", d.Truncated, len(d.ChangedSymbols), d.Summary.ChangedCount)
	}
	text := res.MarkdownFor(ForAgent)
	for _, want := range []string{fmt.Sprintf("cut at the limit: %d changed symbols in all", d.Summary.ChangedCount),
		`call detect_changes again with scope "staged"`, `base_ref "HEAD~1"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer does not say %q:\n%s", want, text)
		}
	}
	if _, err := b.CallTool(context.Background(), "detect_changes", map[string]any{"limit": 101}); err == nil {
		t.Errorf("limit 101 was taken: lists are capped at 100")
	}
}
