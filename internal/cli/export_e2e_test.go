package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExport drives `gitnexus export` through the built binary on the
// shop repository: the default folder, --out, --json, a folder that is
// not empty with and without --force, and the errors of --format.
func TestExport(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	mustRun(t, home, repo, "analyze", "-q")

	// From inside the repository, into ./gitnexus-neo4j-shop.
	r := mustRun(t, home, repo, "export", "--format", "neo4j")
	def := filepath.Join(repo, "gitnexus-neo4j-shop")
	for _, f := range []string{"nodes_Function.csv", "relationships_CALLS.csv", "schema.cypher", "import.sh", "README.txt"} {
		if _, err := os.Stat(filepath.Join(def, f)); err != nil {
			t.Errorf("default folder: %v\n%s", err, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "Exported shop: ") || !strings.Contains(r.stdout, "nodes_Function.csv") ||
		!strings.Contains(r.stdout, "import.sh") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	script, err := os.ReadFile(filepath.Join(def, "import.sh"))
	if err != nil || !strings.Contains(string(script), "database import full") ||
		!strings.Contains(string(script), "--nodes=Function=\"$dir/nodes_Function.csv\"") ||
		!strings.Contains(string(script), "--relationships=CALLS=\"$dir/relationships_CALLS.csv\"") ||
		!strings.Contains(string(script), "--multiline-fields=true") {
		t.Errorf("import.sh: %v\n%s", err, script)
	}
	schema, err := os.ReadFile(filepath.Join(def, "schema.cypher"))
	if err != nil || !strings.Contains(string(schema), "CREATE CONSTRAINT Function_id IF NOT EXISTS FOR (n:Function) REQUIRE n.id IS UNIQUE;") ||
		!strings.Contains(string(schema), "CREATE INDEX Function_filePath IF NOT EXISTS FOR (n:Function) ON (n.filePath);") {
		t.Errorf("schema.cypher: %v\n%s", err, schema)
	}

	// From elsewhere, by name, with --out and --json.
	out := filepath.Join(t.TempDir(), "graph")
	r = mustRun(t, home, t.TempDir(), "export", "--format", "neo4j", "--out", out, "--json", "shop")
	var sum struct {
		Dir   string
		Nodes []struct {
			Name, Label string
			Rows        int
		}
		Relationships []struct {
			Name, Type string
			Rows       int
		}
		NodeCount int
	}
	if err := json.Unmarshal([]byte(r.stdout), &sum); err != nil || sum.Dir != out || sum.NodeCount == 0 || len(sum.Relationships) == 0 {
		t.Errorf("--json: %v\n%s", err, r.stdout)
	}

	// A folder that is not empty: refused, then replaced with --force,
	// which removes an earlier export's files and leaves the others.
	if err := os.WriteFile(filepath.Join(out, "nodes_Gone.csv"), []byte("id:ID\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not empty", []string{"--format", "neo4j", "--out", out}, 2, "is not empty"},
		{"no format", []string{"--out", t.TempDir()}, 2, "--format is required"},
		{"other format", []string{"--format", "graphml", "--out", t.TempDir()}, 2, `--format "graphml" is not supported`},
		{"not indexed", []string{"--format", "neo4j", "--out", t.TempDir(), "nosuchrepo"}, 1, "nosuchrepo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, home, repo, append([]string{"export"}, c.args...)...)
			if r.code != c.code || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d (want %d)\nstderr: %s", r.code, c.code, r.stderr)
			}
		})
	}

	mustRun(t, home, repo, "export", "--format", "neo4j", "--out", out, "--force")
	if _, err := os.Stat(filepath.Join(out, "nodes_Gone.csv")); !os.IsNotExist(err) {
		t.Errorf("--force left the earlier export's nodes_Gone.csv: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "notes.txt")); err != nil || string(b) != "mine" {
		t.Errorf("--force touched another file: %v %q", err, b)
	}
	if _, err := os.Stat(filepath.Join(out, "nodes_Function.csv")); err != nil {
		t.Errorf("--force: %v", err)
	}
}
