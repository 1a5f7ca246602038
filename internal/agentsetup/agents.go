package agentsetup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ServerName is the name gitnexus is registered under in every agent.
const ServerName = "gitnexus"

// Env is where setup looks: the home directory and the environment
// variables the agents themselves read.
type Env struct {
	Home   string
	Getenv func(string) string
}

// OSEnv is the environment of this process ($HOME and os.Getenv).
func OSEnv() (Env, error) {
	home := os.Getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return Env{}, fmt.Errorf("find the home directory (set HOME): %w", err)
		}
	}
	return Env{Home: home, Getenv: os.Getenv}, nil
}

// dir returns $name when it is set to an absolute path, else the home
// directory joined with rel.
func (e Env) dir(name string, rel ...string) string {
	if v := e.Getenv(name); filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(append([]string{e.Home}, rel...)...)
}

// Agent is a coding agent whose MCP configuration setup edits.
type Agent struct {
	Name  string // the --agent value
	Title string
	// Config returns the configuration file setup edits.
	Config func(Env) string
	// Marker returns a file or directory whose presence means the agent is
	// used on this machine.
	Marker func(Env) string
	Format string                     // "JSON", "JSONC" or "TOML"
	entry  func(bin string) jsonEntry // for JSON and JSONC files
	table  func(bin string) tomlTable // for TOML files
}

// Agents are the supported agents, in the order setup reports them.
var Agents = []*Agent{
	{
		Name: "claude-code", Title: "Claude Code", Format: "JSON",
		// User scope: the top-level mcpServers of ~/.claude.json
		// ($CLAUDE_CONFIG_DIR/.claude.json when that is set).
		Config: func(e Env) string { return filepath.Join(e.dir("CLAUDE_CONFIG_DIR"), ".claude.json") },
		Marker: func(e Env) string { return e.dir("CLAUDE_CONFIG_DIR", ".claude") },
		entry: func(bin string) jsonEntry {
			return jsonEntry{container: "mcpServers", key: ServerName,
				value: jsonObject{{"type", "stdio"}, {"command", bin}, {"args", []string{"mcp"}}}}
		},
	},
	{
		Name: "cursor", Title: "Cursor", Format: "JSON",
		Config: func(e Env) string { return filepath.Join(e.Home, ".cursor", "mcp.json") },
		Marker: func(e Env) string { return filepath.Join(e.Home, ".cursor") },
		entry: func(bin string) jsonEntry {
			return jsonEntry{container: "mcpServers", key: ServerName,
				value: jsonObject{{"command", bin}, {"args", []string{"mcp"}}}}
		},
	},
	{
		Name: "codex", Title: "Codex", Format: "TOML",
		Config: func(e Env) string { return filepath.Join(e.dir("CODEX_HOME", ".codex"), "config.toml") },
		Marker: func(e Env) string { return e.dir("CODEX_HOME", ".codex") },
		table: func(bin string) tomlTable {
			return tomlTable{path: []string{"mcp_servers", ServerName},
				keys: []jsonField{{"command", bin}, {"args", []string{"mcp"}}}}
		},
	},
	{
		Name: "opencode", Title: "OpenCode", Format: "JSONC",
		// The global configuration: opencode.jsonc when it exists, else
		// opencode.json, under $XDG_CONFIG_HOME/opencode (~/.config).
		Config: func(e Env) string {
			dir := filepath.Join(e.dir("XDG_CONFIG_HOME", ".config"), "opencode")
			if _, err := os.Stat(filepath.Join(dir, "opencode.jsonc")); err == nil {
				return filepath.Join(dir, "opencode.jsonc")
			}
			return filepath.Join(dir, "opencode.json")
		},
		Marker: func(e Env) string { return filepath.Join(e.dir("XDG_CONFIG_HOME", ".config"), "opencode") },
		entry: func(bin string) jsonEntry {
			return jsonEntry{container: "mcp", key: ServerName,
				value: jsonObject{{"type", "local"}, {"command", []string{bin, "mcp"}}, {"enabled", true}}}
		},
	},
	{
		Name: "gemini", Title: "Gemini CLI", Format: "JSON",
		Config: func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		Marker: func(e Env) string { return filepath.Join(e.Home, ".gemini") },
		entry: func(bin string) jsonEntry {
			return jsonEntry{container: "mcpServers", key: ServerName,
				value: jsonObject{{"command", bin}, {"args", []string{"mcp"}}}}
		},
	},
}

// AgentNames are the --agent values: every agent's name.
func AgentNames() []string {
	names := make([]string, len(Agents))
	for i, a := range Agents {
		names[i] = a.Name
	}
	return names
}

// SelectAgents turns --agent values (names, "all", comma lists) into
// agents in report order. With no names it returns the agents found on
// this machine.
func SelectAgents(names []string, env Env) ([]*Agent, error) {
	if len(names) == 0 {
		var found []*Agent
		for _, a := range Agents {
			if a.Found(env) {
				found = append(found, a)
			}
		}
		return found, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			part = strings.ToLower(strings.TrimSpace(part))
			switch {
			case part == "all":
				for _, a := range Agents {
					want[a.Name] = true
				}
			case agentByName(part) != nil:
				want[part] = true
			case part != "":
				return nil, fmt.Errorf("unknown agent %q: use one of %s, or all", part, strings.Join(AgentNames(), ", "))
			}
		}
	}
	var out []*Agent
	for _, a := range Agents {
		if want[a.Name] {
			out = append(out, a)
		}
	}
	return out, nil
}

func agentByName(name string) *Agent {
	for _, a := range Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Found reports whether the agent is used on this machine: its
// configuration file or its marker exists.
func (a *Agent) Found(env Env) bool {
	for _, p := range []string{a.Config(env), a.Marker(env)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// install returns src with gitnexus registered to run bin.
func (a *Agent) install(src []byte, bin string) (out []byte, h hints, changed bool, err error) {
	if a.table != nil {
		var th tomlHints
		out, th, changed, err = installTOML(src, a.table(bin))
		return out, hints{TOML: &th}, changed, err
	}
	var jh jsonHints
	out, jh, changed, err = installJSON(src, a.entry(bin))
	return out, hints{JSON: &jh}, changed, err
}

// uninstall returns src without the gitnexus entry; empty says nothing but
// an empty root is left.
func (a *Agent) uninstall(src []byte, h hints) (out []byte, removed, empty bool, err error) {
	if a.table != nil {
		var th tomlHints
		if h.TOML != nil {
			th = *h.TOML
		}
		out, removed, err = uninstallTOML(src, a.table(""), th)
		return out, removed, len(strings.TrimSpace(string(out))) == 0, err
	}
	var jh jsonHints
	if h.JSON != nil {
		jh = *h.JSON
	}
	return uninstallJSON(src, a.entry(""), jh)
}

// Where says where in the file the entry lives, for messages.
func (a *Agent) Where() string {
	if a.table != nil {
		return "[" + strings.Join(a.table("").path, ".") + "]"
	}
	e := a.entry("")
	return e.container + "." + e.key
}
