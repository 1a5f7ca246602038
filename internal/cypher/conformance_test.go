package cypher_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
)

var update = flag.Bool("update", false, "rewrite the expected results in testdata with what the engine returns")

// A scenario file (testdata/conformance/*.txt, testdata/plans/*.txt) holds
// cases over one fixture graph:
//
//	# what the scenario covers
//	graph: shop                 (a testdata/graphs file, or repo:<name>)
//
//	=== what the case checks
//	params: {"name": "Place"}   (optional, JSON)
//	maxrows: 2                  (optional)
//	MATCH (n {name: $name}) RETURN n.id
//	---
//	n.id
//	'Method:order/order.go:Service.Place'
//
// The expectation is the header, then one line per row (values as
// Result.Format writes them), "(no rows)", "(truncated)" when the row
// limit cut the result, "warning: ..." lines; or "error: ..." with the
// message. EXPLAIN results print the plan lines as they are.
type scenario struct {
	path   string
	header string
	graph  string
	cases  []*conformanceCase
}

type conformanceCase struct {
	title   string
	params  string
	maxRows int
	query   string
	want    string
}

func parseScenario(path string) (*scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := &scenario{path: path}
	lines := strings.Split(string(b), "\n")
	i := 0
	var header []string
	for ; i < len(lines) && !strings.HasPrefix(lines[i], "=== "); i++ {
		header = append(header, lines[i])
		if g, ok := strings.CutPrefix(lines[i], "graph: "); ok {
			s.graph = strings.TrimSpace(g)
		}
	}
	s.header = strings.TrimRight(strings.Join(header, "\n"), "\n")
	if s.graph == "" {
		return nil, fmt.Errorf("%s: no `graph:` line", path)
	}
	for i < len(lines) {
		c := &conformanceCase{title: strings.TrimPrefix(lines[i], "=== ")}
		i++
		for ; i < len(lines); i++ {
			l := lines[i]
			if p, ok := strings.CutPrefix(l, "params: "); ok {
				c.params = p
			} else if m, ok := strings.CutPrefix(l, "maxrows: "); ok {
				c.maxRows, _ = strconv.Atoi(m)
			} else {
				break
			}
		}
		var q []string
		for ; i < len(lines) && lines[i] != "---"; i++ {
			q = append(q, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s: case %q has no --- line", path, c.title)
		}
		i++
		var w []string
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "=== "); i++ {
			w = append(w, lines[i])
		}
		c.query = strings.TrimSpace(strings.Join(q, "\n"))
		c.want = strings.TrimSpace(strings.Join(w, "\n"))
		s.cases = append(s.cases, c)
	}
	return s, nil
}

func (s *scenario) String() string {
	var b strings.Builder
	b.WriteString(s.header + "\n")
	for _, c := range s.cases {
		b.WriteString("\n=== " + c.title + "\n")
		if c.params != "" {
			b.WriteString("params: " + c.params + "\n")
		}
		if c.maxRows > 0 {
			b.WriteString("maxrows: " + strconv.Itoa(c.maxRows) + "\n")
		}
		b.WriteString(c.query + "\n---\n" + c.want + "\n")
	}
	return b.String()
}

// runCase runs one case and renders what it returned.
func runCase(t *testing.T, f *fixture, c *conformanceCase) string {
	var params map[string]any
	if c.params != "" {
		dec := json.NewDecoder(strings.NewReader(c.params))
		dec.UseNumber()
		if err := dec.Decode(&params); err != nil {
			t.Fatalf("%s: params: %v", c.title, err)
		}
	}
	res, err := f.engine.Query(context.Background(), c.query, cypher.Options{Params: params, MaxRows: c.maxRows, Timeout: time.Minute})
	if err != nil {
		return "error: " + err.Error()
	}
	return renderResult(res)
}

func renderResult(res *cypher.Result) string {
	var b strings.Builder
	if len(res.Columns) == 1 && res.Columns[0] == "plan" && strings.HasPrefix(res.Plan, "") && len(res.Rows) > 0 && isPlan(res) {
		for _, r := range res.Rows {
			b.WriteString(r[0].Str() + "\n")
		}
	} else {
		b.WriteString(strings.Join(res.Columns, " | ") + "\n")
		for _, row := range res.Rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = res.Format(v)
			}
			b.WriteString(strings.Join(cells, " | ") + "\n")
		}
		if len(res.Rows) == 0 {
			b.WriteString("(no rows)\n")
		}
	}
	if res.Truncated {
		b.WriteString("(truncated)\n")
	}
	for _, w := range res.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	return strings.TrimSpace(b.String())
}

// isPlan tells an EXPLAIN result from a query that returns a column named
// plan.
func isPlan(res *cypher.Result) bool {
	return strings.TrimSpace(res.Plan) == strings.TrimSpace(joinPlanRows(res))
}

func joinPlanRows(res *cypher.Result) string {
	var b strings.Builder
	for _, r := range res.Rows {
		b.WriteString(r[0].Str() + "\n")
	}
	return b.String()
}

func runScenarioDir(t *testing.T, dir string) int {
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios in testdata/%s: %v", dir, err)
	}
	total := 0
	for _, p := range paths {
		s, err := parseScenario(p)
		if err != nil {
			t.Fatal(err)
		}
		total += len(s.cases)
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txt"), func(t *testing.T) {
			f := loadFixture(t, s.graph)
			changed := false
			for _, c := range s.cases {
				got := runCase(t, f, c)
				if got == c.want {
					continue
				}
				if *update {
					c.want = got
					changed = true
					continue
				}
				t.Errorf("%s: %s\n%s\n--- got:\n%s\n--- want:\n%s", filepath.Base(p), c.title, c.query, got, c.want)
			}
			if changed {
				if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	return total
}

// TestConformance runs every query of testdata/conformance against its
// fixture and compares the rows, errors and warnings.
func TestConformance(t *testing.T) {
	n := runScenarioDir(t, "conformance")
	t.Logf("%d conformance cases", n)
	if n < 150 {
		t.Errorf("the conformance suite has %d cases; it must keep at least 150", n)
	}
}

// TestPlans checks the plans of representative queries (EXPLAIN), so that
// a change of start node, index use or operator order is seen.
func TestPlans(t *testing.T) {
	runScenarioDir(t, "plans")
}
