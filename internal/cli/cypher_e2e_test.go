package cli_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestCypher drives `gitnexus cypher` through the built binary on the
// shop repository: tables, JSON, parameters, stdin, limits, EXPLAIN and
// the errors a user sees.
func TestCypher(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	mustRun(t, home, repo, "analyze", "-q")

	// A table, from inside the repository.
	r := mustRun(t, home, repo, "cypher", "MATCH (a)-[r:CodeRelation {type: 'CALLS'}]->(b:Function {name: 'validate'}) RETURN a.qualifiedName, a.filePath, r.line")
	want := "a.qualifiedName        a.filePath          r.line\npayment.Client.Charge  payment/payment.go  7\n1 row\n"
	if r.stdout != want {
		t.Errorf("table:\n%s\nwant\n%s", r.stdout, want)
	}

	// JSON, with parameters of two types, from outside the repository.
	r = mustRun(t, home, t.TempDir(), "cypher", "--repo", "shop", "--json", "--param", "names=[\"record\",\"validate\"]", "--param", "min=2",
		"MATCH (f:Function) WHERE f.name IN $names AND f.startLine >= $min RETURN f.name AS name, f.startLine AS line, f ORDER BY name")
	var out struct {
		Repo      string
		Columns   []string
		Rows      []map[string]any
		RowCount  int `json:"row_count"`
		Truncated bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if out.Repo != "shop" || strings.Join(out.Columns, ",") != "name,line,f" || out.RowCount != 2 || out.Truncated ||
		out.Rows[0]["name"] != "record" || out.Rows[1]["line"] != float64(9) {
		t.Errorf("--json: %+v", out)
	}
	if node, _ := out.Rows[0]["f"].(map[string]any); node["id"] != "Function:order/order.go:record" || node["label"] != "Function" {
		t.Errorf("a node in JSON: %v", out.Rows[0]["f"])
	}

	// A string parameter, doc read from the index, a query from stdin.
	cmd := exec.Command(binary, "cypher", "--param", "name=Place", "-")
	cmd.Dir = repo
	cmd.Env = append(cmd.Environ(), "GITNEXUS_HOME="+home)
	cmd.Stdin = strings.NewReader("MATCH (m:Method {name: $name}) RETURN m.doc")
	b, err := cmd.Output()
	if err != nil || !strings.Contains(string(b), "Place charges and records an order.") {
		t.Errorf("stdin query: %v %s", err, b)
	}

	// The row limit cuts and says so.
	r = mustRun(t, home, repo, "cypher", "--limit", "2", "MATCH (n) RETURN n.id ORDER BY n.id")
	if !strings.Contains(r.stdout, "2 rows (truncated at --limit 2") {
		t.Errorf("--limit: %s", r.stdout)
	}

	// EXPLAIN prints the plan.
	r = mustRun(t, home, repo, "cypher", "EXPLAIN MATCH (f:Function {name: 'validate'})<-[:CALLS]-(c) RETURN c.name")
	if !strings.Contains(r.stdout, "NodeByNameSeek (f:Function) f.name = 'validate' (est. 1)") || strings.Contains(r.stdout, "row") {
		t.Errorf("EXPLAIN: %s", r.stdout)
	}

	// Warnings go to stderr, the rows to stdout.
	r = mustRun(t, home, repo, "cypher", "MATCH (f:Funtion) RETURN count(f) AS n")
	if !strings.Contains(r.stderr, "warning: label `Funtion` does not exist") || !strings.Contains(r.stdout, "0\n1 row") {
		t.Errorf("warning: %q %q", r.stdout, r.stderr)
	}

	for _, c := range []struct {
		name string
		args []string
		code int
		msg  []string
	}{
		{"syntax error", []string{"cypher", "MATCH (a:Function RETURN a"}, 1,
			[]string{"1:19: syntax error: expected ')' to close the node pattern, found 'RETURN'", "  MATCH (a:Function RETURN a\n                    ^"}},
		{"read-only", []string{"cypher", "MATCH (n) DETACH DELETE n"}, 1, []string{"DETACH DELETE is not supported: the code graph is read-only. Supported: MATCH"}},
		{"type error", []string{"cypher", "MATCH (f:Function) RETURN f.startLine - f.name"}, 1, []string{"type error: cannot apply - to Integer and String"}},
		{"time limit", []string{"cypher", "--timeout", "1ms", "MATCH (a), (b), (c), (d) RETURN count(*)"}, 1, []string{"stopped after 1ms (the time limit)"}},
		{"missing parameter", []string{"cypher", "MATCH (f {name: $name}) RETURN f"}, 1, []string{"missing parameter $name: pass it with --param name=<value>"}},
		{"bad parameter flag", []string{"cypher", "--param", "novalue", "RETURN 1"}, 2, []string{`--param "novalue": write name=value`}},
		{"no query", []string{"cypher"}, 2, []string{"accepts between 1 and 1 arg"}},
		{"unknown repository", []string{"cypher", "--repo", "nope", "RETURN 1"}, 1, []string{`Repository "nope" not found`}},
	} {
		r := run(t, home, repo, c.args...)
		if r.code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, r.code, c.code, r.stderr)
		}
		for _, m := range c.msg {
			if !strings.Contains(r.stderr, m) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, m, r.stderr)
			}
		}
	}

	r = mustRun(t, home, repo, "cypher", "--help")
	for _, w := range []string{"--param", "--limit", "--timeout", "--json", "read-only", "CodeRelation", "gitnexus cypher \"MATCH"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("--help lacks %q", w)
		}
	}
}
