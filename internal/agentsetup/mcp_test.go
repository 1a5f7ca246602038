package agentsetup

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

const testBinary = "/opt/gitnexus/bin/gitnexus"

// testEnv is a temporary home with no agent variables set.
func testEnv(t *testing.T) (Options, string) {
	t.Helper()
	home := t.TempDir()
	env := Env{Home: home, Getenv: func(string) string { return "" }}
	stamp := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	return Options{Env: env, Home: filepath.Join(home, ".gitnexus"), Binary: testBinary,
		Now: func() time.Time { return stamp }}, home
}

// Each case is an agent's real configuration file as people have it: it is
// put where the agent keeps it, gitnexus is registered (compared with the
// .golden file beside it), registered again (nothing changes), and
// unregistered (the file is back byte for byte).
func TestInstallUninstallMCP(t *testing.T) {
	cases := []struct {
		agent, file string
		want        Action
	}{
		{"claude-code", "user-servers.json", Added},
		{"claude-code", "no-servers.json", Added},
		{"cursor", "mcp.json", Added},
		{"cursor", "empty-servers.json", Added},
		{"cursor", "one-line.json", Added},
		{"cursor", "hand-written.json", Updated},
		{"codex", "config.toml", Added},
		{"codex", "no-final-newline.toml", Added},
		{"opencode", "opencode.jsonc", Added},
		{"opencode", "opencode.json", Added},
		{"gemini", "settings.json", Added},
		{"gemini", "crlf.json", Added},
	}
	for _, tc := range cases {
		t.Run(tc.agent+"/"+tc.file, func(t *testing.T) {
			o, _ := testEnv(t)
			a := agentByName(tc.agent)
			original, err := os.ReadFile(filepath.Join("testdata", tc.agent, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			path := a.Config(o.Env)
			if tc.agent == "opencode" {
				path = filepath.Join(filepath.Dir(path), tc.file)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := a.Config(o.Env); got != path {
				t.Fatalf("config path %s, want %s", got, path)
			}

			// A dry run writes nothing and shows the lines it would add.
			dry := o
			dry.DryRun = true
			changes := mustChange(t, InstallMCP, dry, a, tc.want)
			if !strings.Contains(changes.Diff, "+") || !strings.Contains(changes.Diff, testBinary) {
				t.Errorf("dry run diff does not show the entry:\n%s", changes.Diff)
			}
			assertFile(t, path, original)

			c := mustChange(t, InstallMCP, o, a, tc.want)
			installed, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", tc.agent, tc.file+".golden"), installed)
			checkRegistered(t, a, original, installed)
			if b, err := os.ReadFile(c.Backup); err != nil || !bytes.Equal(b, original) {
				t.Errorf("backup %s does not hold the original: %v", c.Backup, err)
			}

			mustChange(t, InstallMCP, o, a, Unchanged)
			assertFile(t, path, installed)

			mustChange(t, UninstallMCP, o, a, Removed)
			assertFile(t, path, original)
			if _, err := os.Stat(filepath.Join(o.Home, ManifestName)); !os.IsNotExist(err) {
				t.Errorf("the manifest outlives the last entry: %v", err)
			}
			if tc.want != Updated { // else the entry written by hand is back
				mustChange(t, UninstallMCP, o, a, Absent)
			}
		})
	}
}

func mustChange(t *testing.T, fn func(Options, []*Agent) ([]Change, error), o Options, a *Agent, want Action) Change {
	t.Helper()
	changes, err := fn(o, []*Agent{a})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Action != want || changes[0].Err != nil {
		t.Fatalf("changes %+v, want one %s", changes, want)
	}
	return changes[0]
}

func assertFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant:\n%s\ndiff:\n%s", path, got, want, lineDiff(want, got))
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("installed file differs from %s:\n%s", path, lineDiff(want, got))
	}
}

// checkRegistered reads the installed file as the agent would and checks
// that it holds the original's settings plus the gitnexus entry.
func checkRegistered(t *testing.T, a *Agent, original, installed []byte) {
	t.Helper()
	if a.table != nil {
		checkTOML(t, a, original, installed)
		return
	}
	if json.Valid(original) && !json.Valid(installed) {
		t.Errorf("a strict JSON file is no longer strict JSON")
	}
	before, err := parseJSONC(original)
	if err != nil {
		t.Fatal(err)
	}
	after, err := parseJSONC(installed)
	if err != nil {
		t.Fatalf("installed file does not parse: %v", err)
	}
	e := a.entry(testBinary)
	want := before.decode(original).(map[string]any)
	servers, _ := want[e.container].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	servers[e.key] = plain(e.value)
	want[e.container] = servers
	if got := after.decode(installed); !reflect.DeepEqual(got, want) {
		t.Errorf("installed settings:\n%v\nwant:\n%v", got, want)
	}
}

// checkTOML reads both files with Python's tomllib, an independent TOML
// reader.
func checkTOML(t *testing.T, a *Agent, original, installed []byte) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the TOML is not read independently")
	}
	read := func(b []byte) map[string]any {
		cmd := exec.Command(py, "-c", "import sys, tomllib, json; print(json.dumps(tomllib.loads(sys.stdin.read())))")
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tomllib cannot read:\n%s\n%v", b, err)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	want := read(original)
	servers, _ := want["mcp_servers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	entry := map[string]any{}
	for _, k := range a.table(testBinary).keys {
		entry[k.key] = plain(k.value)
	}
	servers[ServerName] = entry
	want["mcp_servers"] = servers
	if got := read(installed); !reflect.DeepEqual(got, want) {
		t.Errorf("installed settings:\n%v\nwant:\n%v", got, want)
	}
}
