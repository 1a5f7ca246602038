package agentsetup

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Registration is what one agent's configuration says about gitnexus.
type Registration struct {
	Agent *Agent
	Path  string
	// Found: the agent is used on this machine.
	Found bool
	// Command is the program the gitnexus entry runs; "" when the file has
	// no gitnexus entry.
	Command string
	// Err: the file exists but cannot be read as its format.
	Err error
}

// Inspect reads every agent's configuration and reports its gitnexus entry.
func Inspect(env Env) []Registration {
	var out []Registration
	for _, a := range Agents {
		r := Registration{Agent: a, Path: a.Config(env), Found: a.Found(env)}
		src, existed, err := readFile(r.Path)
		switch {
		case err != nil:
			r.Err = err
		case existed && a.table != nil:
			r.Command, r.Err = tomlCommand(src, a.table(""))
		case existed:
			r.Command, r.Err = jsonCommand(src, a.entry(""))
		}
		if r.Err != nil {
			r.Err = fmt.Errorf("%s is not valid %s: %w", r.Path, a.Format, r.Err)
		}
		out = append(out, r)
	}
	return out
}

// jsonCommand returns the program of the entry e names: its command, or
// the first element of a command array (OpenCode).
func jsonCommand(src []byte, e jsonEntry) (string, error) {
	src, root, err := rootObject(src)
	if err != nil {
		return "", err
	}
	ci := root.member(e.container)
	if ci < 0 {
		return "", nil
	}
	c := root.members[ci].value
	mi := c.member(e.key)
	if c.kind != '{' || mi < 0 {
		return "", nil
	}
	v, _ := c.members[mi].value.decode(src).(map[string]any)
	switch cmd := v["command"].(type) {
	case string:
		return cmd, nil
	case []any:
		if len(cmd) > 0 {
			s, _ := cmd[0].(string)
			return s, nil
		}
	}
	return "", fmt.Errorf("the %s entry has no command", e.key)
}

// tomlCommand returns the command key of table t.
func tomlCommand(src []byte, t tomlTable) (string, error) {
	start, end, ok, err := findTable(src, t)
	if err != nil || !ok {
		return "", err
	}
	for _, line := range strings.Split(string(src[start:end]), "\n") {
		k, v, found := strings.Cut(line, "=")
		if !found || strings.TrimSpace(k) != "command" {
			continue
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2 {
			return v[1 : len(v)-1], nil
		}
		var s string
		if err := json.Unmarshal([]byte(v), &s); err != nil {
			return "", fmt.Errorf("command = %s is not a string", v)
		}
		return s, nil
	}
	return "", fmt.Errorf("[%s] has no command", strings.Join(t.path, "."))
}
