package cypher_test

import (
	"context"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/graph"
)

// TestSchemaText checks that the schema for agents names every label,
// property, edge kind and reason with a description, and counts them when
// given a graph.
func TestSchemaText(t *testing.T) {
	f := loadFixture(t, "shop")
	text := cypher.SchemaText(f.g)
	for _, k := range graph.AllKinds() {
		if !strings.Contains(text, "| `"+k.String()+"` | ") || strings.Contains(text, "| `"+k.String()+"` |  |") {
			t.Errorf("schema text does not describe label %s", k)
		}
	}
	for _, e := range graph.AllEdgeTypes() {
		if !strings.Contains(text, "| `"+e.String()+"` | ") || strings.Contains(text, "| `"+e.String()+"` |  |") {
			t.Errorf("schema text does not describe edge kind %s", e)
		}
	}
	for _, r := range graph.AllReasons() {
		_, rest, ok := strings.Cut(text, "| `"+string(r)+"` | ")
		if _, meaning, _ := strings.Cut(rest, " | "); !ok || strings.HasPrefix(meaning, "|") {
			t.Errorf("schema text does not describe reason %s", r)
		}
	}
	for _, p := range cypher.NodeProperties {
		if !strings.Contains(text, "| `"+p.Name+"` | "+p.Type+" | ") {
			t.Errorf("schema text lacks node property %s", p.Name)
		}
	}
	for _, p := range cypher.RelProperties {
		if !strings.Contains(text, "| `"+p.Name+"` | "+p.Type+" | ") {
			t.Errorf("schema text lacks relationship property %s", p.Name)
		}
	}
	if !strings.Contains(text, "| `Method` | a method, including interface methods | 4 |") ||
		!strings.Contains(text, "| `CALLS` | ") || !strings.Contains(text, " | 9 |\n| `EXTENDS`") {
		t.Errorf("schema text lacks the counts of the graph:\n%s", text)
	}
	if n := len(cypher.Examples); n < 10 || n > 17 {
		t.Errorf("%d examples, want 10 to 17", n)
	}
}

// TestSchemaExamples runs every example of the schema text on a
// repository indexed by the pipeline: each must run and find something.
func TestSchemaExamples(t *testing.T) {
	f := loadFixture(t, "repo:shop")
	for _, ex := range cypher.Examples {
		res, err := f.engine.Query(context.Background(), ex.Query, cypher.Options{})
		if err != nil {
			t.Errorf("%s: %v", ex.Question, err)
			continue
		}
		if len(res.Rows) == 0 {
			t.Errorf("%s: no rows from %s", ex.Question, ex.Query)
		}
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings %v", ex.Question, res.Warnings)
		}
	}
}
