package graph

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestSchemaDocumentsEverything keeps docs/schema.md in step with the code:
// every node kind, edge type and reason must be documented, with the
// confidence the code gives it.
func TestSchemaDocumentsEverything(t *testing.T) {
	b, err := os.ReadFile("../../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, k := range AllKinds() {
		if !strings.Contains(doc, "`"+k.String()+"`") {
			t.Errorf("docs/schema.md does not document node kind %s", k)
		}
	}
	for _, e := range AllEdgeTypes() {
		if !strings.Contains(doc, "| `"+e.String()+"` |") {
			t.Errorf("docs/schema.md does not document edge type %s", e)
		}
	}
	for _, r := range AllReasons() {
		row := "| `" + string(r) + "` | " + trimFloat(r.Confidence()) + " |"
		if !strings.Contains(doc, row) {
			t.Errorf("docs/schema.md lacks the row %q", row)
		}
	}
}

func trimFloat(f float64) string {
	s := strings.TrimRight(strings.TrimRight(strconvFormat(f), "0"), ".")
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func strconvFormat(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
