package agentsetup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On a machine where no agent has a configuration yet, setup creates each
// file (and its directories) and uninstall deletes them again.
func TestInstallIntoEmptyHome(t *testing.T) {
	o, home := testEnv(t)
	changes, err := InstallMCP(o, Agents)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Action != Created || c.Err != nil {
			t.Errorf("%s: %s %v, want created", c.What, c.Action, c.Err)
		}
		if fi, err := os.Stat(c.Path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", c.Path, fi, err)
		}
	}
	for _, a := range Agents {
		if !a.Found(o.Env) {
			t.Errorf("%s is not found after setup", a.Name)
		}
	}
	changes, err = UninstallMCP(o, Agents)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Action != Deleted || c.Err != nil {
			t.Errorf("%s: %s %v, want deleted", c.What, c.Action, c.Err)
		}
	}
	entries, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".gitnexus" {
			t.Errorf("left behind in the home directory: %s", e.Name())
		}
	}
}

// The agent keeps writing its file between setup and uninstall: uninstall
// takes out only the entry and keeps the agent's changes.
func TestUninstallKeepsLaterChanges(t *testing.T) {
	o, _ := testEnv(t)
	a := agentByName("claude-code")
	original, err := os.ReadFile("testdata/claude-code/user-servers.json")
	if err != nil {
		t.Fatal(err)
	}
	path := a.Config(o.Env)
	if err := os.WriteFile(path, original, 0o600); err != nil {
		t.Fatal(err)
	}
	mustChange(t, InstallMCP, o, a, Added)
	b, _ := os.ReadFile(path)
	b = []byte(strings.Replace(string(b), `"numStartups": 12`, `"numStartups": 13`, 1))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	mustChange(t, UninstallMCP, o, a, Removed)
	assertFile(t, path, []byte(strings.Replace(string(original), `"numStartups": 12`, `"numStartups": 13`, 1)))
}

// A file setup cannot read is reported and left exactly as it was; the
// other agents are still set up.
func TestInstallLeavesUnreadableFilesAlone(t *testing.T) {
	cases := []struct {
		agent, content, want string
	}{
		{"cursor", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n", "line 4, column 1: unterminated object"},
		{"gemini", "[1, 2]\n", "not an object"},
		{"claude-code", "{\"mcpServers\": []}\n", `"mcpServers" is not an object`},
		{"codex", "mcp_servers.gitnexus.command = \"gitnexus\"\n", "outside a [mcp_servers.gitnexus] table"},
		{"codex", "[mcp_servers]\ngitnexus = { command = \"gitnexus\" }\n", "outside a [mcp_servers.gitnexus] table"},
	}
	for _, tc := range cases {
		t.Run(tc.agent, func(t *testing.T) {
			o, _ := testEnv(t)
			a := agentByName(tc.agent)
			path := a.Config(o.Env)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			changes, err := InstallMCP(o, []*Agent{a, agentByName("opencode")})
			if err != nil {
				t.Fatal(err)
			}
			if c := changes[0]; c.Action != Failed || c.Err == nil || !strings.Contains(c.Err.Error(), tc.want) {
				t.Errorf("got %s %v, want failed with %q", c.Action, c.Err, tc.want)
			}
			if c := changes[1]; c.Action != Created {
				t.Errorf("the next agent: %s %v", c.Action, c.Err)
			}
			assertFile(t, path, []byte(tc.content))
		})
	}
}

func TestSelectAgents(t *testing.T) {
	o, home := testEnv(t)
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		names []string
		want  string
	}{
		{nil, "claude-code codex"},
		{[]string{"all"}, "claude-code cursor codex opencode gemini"},
		{[]string{"gemini,cursor"}, "cursor gemini"},
		{[]string{"Codex", "codex"}, "codex"},
		{[]string{"vim"}, `unknown agent "vim"`},
	}
	for _, tc := range cases {
		agents, err := SelectAgents(tc.names, o.Env)
		var got []string
		for _, a := range agents {
			got = append(got, a.Name)
		}
		s := strings.Join(got, " ")
		if err != nil {
			s = err.Error()
		}
		if !strings.HasPrefix(s, tc.want) {
			t.Errorf("SelectAgents(%q) = %s, want %s", tc.names, s, tc.want)
		}
	}
}

// The agents' own variables move their files, as they do for the agents.
func TestAgentPathsFollowTheirVariables(t *testing.T) {
	vars := map[string]string{"CLAUDE_CONFIG_DIR": "/c/claude", "CODEX_HOME": "/c/codex", "XDG_CONFIG_HOME": "/c/xdg"}
	env := Env{Home: "/home/u", Getenv: func(k string) string { return vars[k] }}
	want := map[string]string{
		"claude-code": "/c/claude/.claude.json",
		"cursor":      "/home/u/.cursor/mcp.json",
		"codex":       "/c/codex/config.toml",
		"opencode":    "/c/xdg/opencode/opencode.json",
		"gemini":      "/home/u/.gemini/settings.json",
	}
	for _, a := range Agents {
		if got := a.Config(env); got != want[a.Name] {
			t.Errorf("%s: %s, want %s", a.Name, got, want[a.Name])
		}
	}
}

// Removal undoes insertion for every shape of object an entry goes into.
func TestJSONInsertRemoveRoundTrip(t *testing.T) {
	docs := []string{
		"{}",
		"{ }\n",
		"{\n}\n",
		"{\"a\": 1}",
		"{\"a\": 1,}",
		"{\n  \"a\": 1 // one\n}\n",
		"{\n  \"a\": 1, // one\n}\n",
		"{\n  \"a\": 1 /* one */\n}\n",
		"{\n\t\"a\": {\n\t\t\"b\": [1, 2]\n\t}\n}\n",
		"\ufeff{\r\n  \"a\": \"x\"\r\n}\r\n",
		"{\"mcpServers\": {\"x\": {}}, \"b\": null}",
		"{\n  \"mcpServers\": { /* none yet */ }\n}\n",
	}
	e := jsonEntry{container: "mcpServers", key: "gitnexus", value: jsonObject{{"command", "/bin/g"}, {"args", []string{"mcp"}}}}
	for _, doc := range docs {
		out, h, changed, err := installJSON([]byte(doc), e)
		if err != nil || !changed {
			t.Errorf("%q: install: %v %v", doc, changed, err)
			continue
		}
		if _, err := parseJSONC(out); err != nil {
			t.Errorf("%q: installed text does not parse: %v\n%s", doc, err, out)
		}
		back, removed, _, err := uninstallJSON(out, e, h)
		if err != nil || !removed || string(back) != doc {
			t.Errorf("%q: after install and uninstall: %q (%v %v)\ninstalled:\n%s", doc, back, removed, err, out)
		}
	}
}

func TestParseJSONCErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{`{"a": }`, "line 1, column 7: expected a value"},
		{"{\n\"a\": 1\n\"b\": 2}", "line 3, column 1: expected , or } after a member"},
		{`{"a": 1} x`, `line 1, column 10: unexpected 'x' after the value`},
		{"/* open", "line 1, column 1: unterminated /* comment"},
		{`{"a": "x`, "line 1, column 7: unterminated string"},
		{`{a: 1}`, "line 1, column 2: expected a member name in quotes"},
		{`[1 2]`, "line 1, column 4: expected , or ] after an element"},
	}
	for _, tc := range cases {
		_, err := parseJSONC([]byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("parseJSONC(%q) = %v, want %s", tc.src, err, tc.want)
		}
	}
}

func TestTOMLRoundTrip(t *testing.T) {
	tab := tomlTable{path: []string{"mcp_servers", "gitnexus"}, keys: []jsonField{{"command", "/bin/g"}, {"args", []string{"mcp"}}}}
	docs := []string{
		"",
		"a = 1",
		"a = 1\n",
		"a = 1\n\n",
		"a = 1\r\n[t]\r\nb = 2\r\n",
		"[mcp_servers.other]\ncommand = \"x\"\n# trailing comment\n",
	}
	for _, doc := range docs {
		out, h, changed, err := installTOML([]byte(doc), tab)
		if err != nil || !changed {
			t.Errorf("%q: install: %v %v", doc, changed, err)
			continue
		}
		if again, _, changed, _ := installTOML(out, tab); changed || string(again) != string(out) {
			t.Errorf("%q: a second install changed the file", doc)
		}
		back, removed, err := uninstallTOML(out, tab, h)
		if err != nil || !removed || string(back) != doc {
			t.Errorf("%q: after install and uninstall: %q (%v %v)\ninstalled:\n%s", doc, back, removed, err, out)
		}
	}
	// An existing table of ours (quoted, with a sub-table) is replaced as
	// a whole, and comments before the next table stay with it.
	doc := "[mcp_servers.\"gitnexus\"]\ncommand = \"gitnexus\"\n\n[mcp_servers.gitnexus.env]\nX = \"1\"\n\n# next\n[tui]\n"
	out, h, changed, err := installTOML([]byte(doc), tab)
	want := "[mcp_servers.gitnexus]\ncommand = \"/bin/g\"\nargs = [\"mcp\"]\n\n# next\n[tui]\n"
	if err != nil || !changed || string(out) != want {
		t.Errorf("replace: %q %v %v, want %q", out, changed, err, want)
	}
	if back, _, _ := uninstallTOML(out, tab, h); string(back) != doc {
		t.Errorf("restore: %q, want %q", back, doc)
	}
}
