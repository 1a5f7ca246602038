package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestQueryHistory: the commits whose messages match a question lift the
// symbols they changed. Without the history, writeChunk's doc says
// "frame" twice and ranks first; the commit "retry a frame read when the
// socket times out" changed readChunk, so with the history readChunk
// ranks first. When no commit matches, the ranking is the text's alone.
func TestQueryHistory(t *testing.T) {
	testrepo.Home(t)
	reader := func(body string) string {
		return "package wire\n\n// readChunk reads a frame.\nfunc readChunk(b []byte) int {\n" + body + "}\n\n" +
			"// writeChunk writes a frame, one frame at a time.\nfunc writeChunk(b []byte) int {\n\treturn len(b)\n}\n"
	}
	root := testrepo.New(t, filepath.Join(t.TempDir(), "wire"), map[string]string{"wire.go": reader("\treturn len(b)\n")})
	testrepo.Write(t, root, map[string]string{"wire.go": reader("\tfor i := 0; i < 3; i++ {\n\t\tif len(b) > 0 {\n\t\t\treturn len(b)\n\t\t}\n\t}\n\treturn 0\n")})
	testrepo.Git(t, root, "commit", "-q", "-am", "retry a frame read when the socket times out")
	testrepo.IndexHistory(t, root)
	r, g := testrepo.Load(t, root)
	x := NewHistoryIndex(g.HistoryRecords(), g)
	hist := &QueryHistory{X: x, Commits: search.NewCorpus(x.CommitDocs())}
	ctx := context.Background()
	order := func(q string, h *QueryHistory) (string, string) {
		t.Helper()
		res, err := Query(ctx, r, g, q, QueryOptions{Limit: 5, History: h})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, hit := range res.Results {
			names = append(names, hit.Name)
		}
		return fmt.Sprint(names), res.Ranking
	}
	for _, tc := range []struct {
		question         string
		history          *QueryHistory
		want, wantRanked string
	}{
		{"frame socket retry", nil, "[writeChunk readChunk]", "bm25"},
		{"frame socket retry", hist, "[readChunk writeChunk]", "bm25+history"},
		{"writes one time", hist, "[writeChunk]", "bm25"},
	} {
		got, ranked := order(tc.question, tc.history)
		if got != tc.want || ranked != tc.wantRanked {
			t.Errorf("%q (history %v): %s ranked %s, want %s ranked %s", tc.question, tc.history != nil, got, ranked, tc.want, tc.wantRanked)
		}
	}
}
