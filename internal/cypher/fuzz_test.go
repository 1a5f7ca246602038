package cypher_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
)

// seedQueries returns every query of the conformance and plan scenarios.
func seedQueries(f *testing.F) []string {
	var out []string
	for _, dir := range []string{"conformance", "plans"} {
		paths, _ := filepath.Glob(filepath.Join("testdata", dir, "*.txt"))
		for _, p := range paths {
			s, err := parseScenario(p)
			if err != nil {
				f.Fatal(err)
			}
			for _, c := range s.cases {
				out = append(out, c.query)
			}
		}
	}
	return out
}

// FuzzParse checks that the parser never panics or hangs, and that every
// error it reports is an *Error with positions inside the query.
func FuzzParse(f *testing.F) {
	for _, q := range seedQueries(f) {
		f.Add(q)
	}
	f.Add("MATCH (a)-[r:CALLS*1..3 {x: [1, {y: $p}]}]->(b:A|B:C) WHERE a.x =~ 'x' RETURN a {.x, .*}")
	f.Add("RETURN [x IN [(a)-->(b) | b] WHERE x | x], reduce(s = 0, x IN [] | s), CASE WHEN 1 THEN 2 END")
	f.Add("MATCH p = allShortestPaths((a:A {x: $p})<-[r:CALLS|IMPORTS*0..6 {y: 1}]-(b)) WHERE none(n IN nodes(p) WHERE n:B) RETURN p")
	f.Add("MATCH p = shortestPath((a)-[*]->(b), q = shortestPath(")
	f.Add("RETURN [p = allShortestPaths((a)--(b)) | p], EXISTS { shortestPath((a)--(b)) }")
	f.Add("`unterminated")
	f.Add("/* unterminated")
	f.Add("'\\u12")
	f.Fuzz(func(t *testing.T, q string) {
		_, err := cypher.Parse(q)
		if err == nil {
			return
		}
		qe, ok := err.(*cypher.Error)
		if !ok {
			t.Fatalf("Parse(%q) returned %T, want *cypher.Error", q, err)
		}
		lines := strings.Count(q, "\n") + 1
		for _, d := range qe.Diags {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 || d.Pos.Off < 0 || d.Pos.Off > len(q) {
				t.Fatalf("Parse(%q): diagnostic at %+v is outside the query", q, d.Pos)
			}
		}
		_ = qe.Error()
	})
}

// FuzzQuery runs any input as a query on a small graph with tight limits:
// the engine must answer or fail with an error, never panic, and stop
// within its time limit.
func FuzzQuery(f *testing.F) {
	for _, q := range seedQueries(f) {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		fx := loadFixture(t, "chain")
		start := time.Now()
		_, err := fx.engine.Query(context.Background(), q, cypher.Options{
			Params: map[string]any{"name": "a", "names": []any{"a", "b"}, "n": 2, "skip": 1, "limit": 2,
				"re": ".*", "kind": "CALLS", "flag": true, "i": 1, "f": 1.5, "s": "x", "b": true, "l": []any{1}, "m": map[string]any{"k": 1}},
			Timeout: 200 * time.Millisecond, MaxMemory: 1 << 20, MaxRows: 100,
		})
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%q ran %s, past its time limit", q, d)
		}
		if err != nil {
			_ = err.Error()
		}
	})
}
