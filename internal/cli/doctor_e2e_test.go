package cli_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/embed/embedtest"
	"gitnexus.dev/gitnexus/internal/store"
)

type doctorCheck struct {
	Section, Name, Status, Detail, Fix string
}

type doctorReport struct {
	Checks   []doctorCheck
	Problems int
	Warnings int
}

func doctor(t *testing.T, home string, extraEnv ...string) (doctorReport, result) {
	t.Helper()
	r := runHomeEnv(t, home, t.TempDir(), extraEnv, "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	return rep, r
}

func findCheck(rep doctorReport, name string) *doctorCheck {
	for i := range rep.Checks {
		if rep.Checks[i].Name == name {
			return &rep.Checks[i]
		}
	}
	return nil
}

// doctor on a healthy machine says so and exits 0; each kind of breakage is
// reported under its name with the command that fixes it, and the exit
// status is 1. Running the fixes makes doctor happy again.
func TestDoctor(t *testing.T) {
	home := t.TempDir()
	healthy := newRepo(t, "healthy", shop)
	mustRunHome(t, home, healthy, "analyze", "-q")
	mustRunHome(t, home, healthy, "setup", "--agent", "cursor")

	rep, r := doctor(t, home)
	if r.code != 0 || rep.Problems != 0 || rep.Warnings != 0 {
		t.Fatalf("healthy machine: exit %d\n%s", r.code, r.stdout)
	}
	for name, status := range map[string]string{"git": "ok", "sqlite": "ok", "registry": "ok", "embeddings": "info", "cursor": "ok", "healthy": "ok"} {
		if c := findCheck(rep, name); c == nil || c.Status != status {
			t.Errorf("check %s: %+v, want %s", name, c, status)
		}
	}

	// Break things, one of each kind.
	gone := newRepo(t, "gone", shop)
	stale := newRepo(t, "stale", shop)
	oldSchema := newRepo(t, "oldschema", shop)
	corrupt := newRepo(t, "corrupt", shop)
	for _, repo := range []string{gone, stale, oldSchema, corrupt} {
		mustRunHome(t, home, repo, "analyze", "-q")
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, stale, map[string]string{"extra.go": "package shop\n\nfunc Extra() {}\n"})
	git(t, stale, "add", "-A")
	git(t, stale, "commit", "-q", "-m", "more")
	db, err := sql.Open("sqlite3", filepath.Join(oldSchema, ".gitnexus", "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	cur, old := store.SchemaVersion, store.SchemaVersion-1
	if _, err := db.Exec(fmt.Sprintf(`UPDATE meta SET value = replace(value, '"schemaVersion":%d', '"schemaVersion":%d') WHERE key = 'meta'`, cur, old)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.WriteFile(filepath.Join(corrupt, ".gitnexus", "graph.db"), []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, home, map[string]string{".gemini/settings.json": `{"mcpServers": {"gitnexus": {"command": "/nowhere/gitnexus", "args": ["mcp"]}}}`})

	rep, r = doctor(t, home)
	if r.code != 1 || !strings.Contains(r.stderr, "problem(s) found") {
		t.Errorf("broken machine: exit %d, %s", r.code, r.stderr)
	}
	want := []struct{ name, status, detail, fix string }{
		{"gone", "fail", "no longer exists", "gitnexus clean " + gone},
		{"stale", "warn", "HEAD moved", "gitnexus analyze " + stale},
		{"oldschema", "fail", fmt.Sprintf("schema version %d, this gitnexus reads version %d", old, cur), "gitnexus analyze --force " + oldSchema},
		{"corrupt", "fail", "not a gitnexus index", "gitnexus analyze --force " + corrupt},
		{"gemini", "fail", "runs /nowhere/gitnexus, which does not exist", "gitnexus setup --agent gemini"},
		{"healthy", "ok", "fresh", ""},
	}
	for _, w := range want {
		c := findCheck(rep, w.name)
		if c == nil || c.Status != w.status || !strings.Contains(c.Detail, w.detail) || c.Fix != w.fix {
			t.Errorf("check %s: %+v\nwant status %s, detail with %q, fix %q", w.name, c, w.status, w.detail, w.fix)
		}
	}
	if rep.Problems != 4 || rep.Warnings != 1 {
		t.Errorf("%d problems and %d warnings, want 4 and 1", rep.Problems, rep.Warnings)
	}

	// The fixes, as doctor gave them.
	for _, w := range want {
		if w.fix == "" {
			continue
		}
		args := strings.Fields(w.fix)[1:]
		if args[0] == "analyze" {
			args = append(args, "-q")
		}
		mustRunHome(t, home, t.TempDir(), args...)
	}
	if rep, r = doctor(t, home); r.code != 0 || rep.Problems != 0 || rep.Warnings != 0 {
		t.Errorf("after the fixes: exit %d\n%s", r.code, r.stdout)
	}

	// Without git, doctor says so first.
	rep, _ = doctor(t, home, "PATH="+t.TempDir())
	if c := findCheck(rep, "git"); c == nil || c.Status != "fail" || !strings.Contains(c.Fix, "install git") {
		t.Errorf("without git: %+v", c)
	}
}

// TestDoctorEmbeddings: doctor names the embedding provider the settings
// choose and what it lacks.
func TestDoctorEmbeddings(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	srv := embedtest.Start(t, 32)
	for _, tc := range []struct {
		name   string
		env    []string
		status string
		detail string
		fix    string
	}{
		{"none", nil, "info", "no embedding provider is configured", "--embeddings=openai (or onnx) for vector search too: docs/embeddings.md"},
		{"openai", []string{"GITNEXUS_EMBEDDING_PROVIDER=openai", "GITNEXUS_EMBEDDING_URL=" + srv.URL, "GITNEXUS_EMBEDDING_MODEL=bag-of-words"},
			"ok", "provider openai is configured", ""},
		{"builtin, removed", []string{"GITNEXUS_EMBEDDING_PROVIDER=builtin"}, "fail", "use one of openai, onnx, none", ""},
		{"onnx without files", []string{"GITNEXUS_EMBEDDING_PROVIDER=onnx"}, "fail", "provider onnx", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, exec.Command(binary, "doctor", "--json"), home, repo, tc.env)
			var rep doctorReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("doctor --json: %v\n%s%s", err, r.stdout, r.stderr)
			}
			found := false
			for _, c := range rep.Checks {
				if c.Name == "embeddings" {
					found = true
					if c.Status != tc.status || !strings.Contains(c.Detail, tc.detail) || !strings.Contains(c.Fix, tc.fix) {
						t.Errorf("embeddings check %+v, want status %s with %q and the fix %q", c, tc.status, tc.detail, tc.fix)
					}
				}
			}
			if !found {
				t.Errorf("doctor has no embeddings check: %s", r.stdout)
			}
		})
	}
}
