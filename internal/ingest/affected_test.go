package ingest

import (
	"context"
	"fmt"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// TestReindexResolvesOnlyTheAffectedFiles runs a re-index the way analyze
// does after a save, in process (so that the race detector sees the
// affected files found while the program is built): the cache and the
// snapshot of the first run's index, one file edited (a function's
// parameters). Only the edited file and the one calling into it are
// resolved, and the graph is a full run's.
func TestReindexResolvesOnlyTheAffectedFiles(t *testing.T) {
	for _, tc := range []struct {
		name         string
		files        map[string]string
		edit, edited string
		call         string // an edge line of the full graph, to show it was resolved
	}{
		{"go", map[string]string{
			"go.mod": "module m\n",
			"a/a.go": "package a\n\nfunc A() int { return 1 }\n",
			"b/b.go": "package b\n\nimport \"m/a\"\n\nfunc B() int { return a.A() }\n",
			"c/c.go": "package c\n\nfunc C() int { return 3 }\n\nfunc D() int { return C() }\n",
		}, "a/a.go", "package a\n\nfunc A(n int) int { return helper(n) }\n\nfunc helper(n int) int { return n }\n",
			"Function:b/b.go:B -CALLS-> Function:a/a.go:A 0.950 import-resolved 5 []"},
		{"typescript", map[string]string{
			"a.ts": "export function A() { return 1 }\n",
			"b.ts": "import { A } from './a'\nexport function B() { return A() }\n",
			"c.ts": "function C() { return 3 }\nexport function D() { return C() }\n",
		}, "a.ts", "export function A(n: number) { return helper(n) }\nfunction helper(n: number) { return n }\n",
			"Function:b.ts:B -CALLS-> Function:a.ts:A 0.950 import-resolved 2 []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			root := t.TempDir()
			for p, c := range tc.files {
				write(t, root, p, c)
			}
			meta := store.Meta{Writer: "test"}
			first, err := Run(ctx, Options{Root: root, Workers: 2, Previous: Previous{Cache: NewExtractCache("k")}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Save(ctx, root, first.Graph, nil, meta, store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			r, err := store.OpenRepo(root)
			if err != nil {
				t.Fatal(err)
			}
			ahead, err := r.SnapshotAhead(ctx)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}

			write(t, root, tc.edit, tc.edited)
			again, err := Run(ctx, Options{Root: root, Workers: 2, Changed: []string{tc.edit},
				Previous: Previous{Cache: first.Cache, CacheIsIndex: true, Ahead: func() *store.Ahead { return ahead }}})
			if err != nil {
				t.Fatal(err)
			}
			if st := again.Stats; st.FilesResolved != 2 || st.ResolveAllWhy != "" {
				t.Errorf("re-index resolved %d files (%q), want the edited one and its caller", st.FilesResolved, st.ResolveAllWhy)
			}
			full, err := Run(ctx, Options{Root: root, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			edges := func(g *graph.Graph) map[string]bool {
				out := map[string]bool{}
				for _, e := range g.Edges() {
					out[fmt.Sprintf("%s -%s-> %s %.3f %s %d %v", e.Src, e.Type, e.Dst, e.Confidence, e.Reason, e.Line, e.More)] = true
				}
				return out
			}
			got, want := edges(again.Graph), edges(full.Graph)
			for e := range want {
				if !got[e] {
					t.Errorf("re-index lacks %s", e)
				}
			}
			for e := range got {
				if !want[e] {
					t.Errorf("re-index has %s, a full run does not", e)
				}
			}
			if !want[tc.call] {
				t.Errorf("a full run lacks %s: %v", tc.call, want)
			}
			if again.Graph.NodeCount() != full.Graph.NodeCount() {
				t.Errorf("re-index has %d nodes, a full run %d", again.Graph.NodeCount(), full.Graph.NodeCount())
			}
		})
	}
}
