package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runHome runs the binary with a temporary HOME (and GITNEXUS_HOME inside
// it), with none of the agents' own location variables set.
func runHome(t *testing.T, home, dir string, args ...string) result {
	t.Helper()
	return runHomeEnv(t, home, dir, nil, args...)
}

// runHomeEnv is runHome with more environment variables (they win over
// the inherited ones).
func runHomeEnv(t *testing.T, home, dir string, extraEnv []string, args ...string) result {
	t.Helper()
	return runIn(t, exec.Command(binary, args...), home, dir, extraEnv)
}

// runIn runs cmd in dir with the home directory and environment of
// runHomeEnv.
func runIn(t *testing.T, cmd *exec.Cmd, home, dir string, extraEnv []string) result {
	t.Helper()
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "HOME", "GITNEXUS_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+home, "GITNEXUS_HOME="+filepath.Join(home, ".gitnexus"))
	cmd.Env = append(cmd.Env, extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", cmd.Args, err)
	}
	return result{code, out.String(), errb.String()}
}

func mustRunHome(t *testing.T, home, dir string, args ...string) result {
	t.Helper()
	r := runHome(t, home, dir, args...)
	if r.code != 0 {
		t.Fatalf("gitnexus %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

func copyFile(t *testing.T, from, to string) []byte {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Dir(to), map[string]string{filepath.Base(to): string(b)})
	return b
}

// setup finds the agents a user has, registers the binary that runs it,
// leaves a second run alone, and uninstall gives back the files as they were.
func TestSetupRegistersAndUninstalls(t *testing.T) {
	home := t.TempDir()
	cursor := copyFile(t, "../agentsetup/testdata/cursor/mcp.json", filepath.Join(home, ".cursor", "mcp.json"))
	codex := copyFile(t, "../agentsetup/testdata/codex/config.toml", filepath.Join(home, ".codex", "config.toml"))
	dir := t.TempDir()

	r := mustRunHome(t, home, dir, "setup")
	if !strings.Contains(r.stdout, "Cursor") || !strings.Contains(r.stdout, "Codex") || strings.Contains(r.stdout, "Gemini") {
		t.Errorf("setup did not pick the agents found:\n%s", r.stdout)
	}
	for _, p := range []string{".cursor/mcp.json", ".codex/config.toml"} {
		b, err := os.ReadFile(filepath.Join(home, p))
		if err != nil || !strings.Contains(string(b), `"`+binary+`"`) {
			t.Errorf("%s does not run %s:\n%s", p, binary, b)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".gemini")); !os.IsNotExist(err) {
		t.Errorf("setup wrote for an agent that is not there: %v", err)
	}
	r = mustRunHome(t, home, dir, "setup")
	if strings.Count(r.stdout, "unchanged") != 2 {
		t.Errorf("second setup:\n%s", r.stdout)
	}

	r = mustRunHome(t, home, dir, "setup", "--uninstall")
	if strings.Count(r.stdout, "removed") != 2 {
		t.Errorf("uninstall:\n%s", r.stdout)
	}
	for p, want := range map[string][]byte{".cursor/mcp.json": cursor, ".codex/config.toml": codex} {
		if b, _ := os.ReadFile(filepath.Join(home, p)); !bytes.Equal(b, want) {
			t.Errorf("%s after uninstall:\n%s", p, b)
		}
	}

	// A machine with no agent: say what to do, and fail.
	r = runHome(t, t.TempDir(), dir, "setup")
	if r.code != 1 || !strings.Contains(r.stderr, "--agent") {
		t.Errorf("no agents: exit %d, %s", r.code, r.stderr)
	}
	r = runHome(t, home, dir, "setup", "--agent", "vim")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown agent "vim"`) {
		t.Errorf("unknown agent: exit %d, %s", r.code, r.stderr)
	}
}

// Skills and the AGENTS.md block are written only on request, and what
// they add to a repository is exactly what uninstall takes away: git sees
// a clean work tree again. The index itself never shows up in git.
func TestSkillsAndAgentsMDOnRequest(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)

	mustRunHome(t, home, repo, "analyze", "-q")
	if out := gitStatus(t, repo); out != "" {
		t.Errorf("analyze changed the work tree (the index must be ignored):\n%s", out)
	}

	r := mustRunHome(t, home, repo, "analyze", "-q", "--agents-md")
	if !strings.Contains(r.stdout, "AGENTS.md") {
		t.Errorf("analyze --agents-md:\n%s", r.stdout)
	}
	r = mustRunHome(t, home, repo, "setup", "--skills", "--agent", "claude-code")
	if !strings.Contains(r.stdout, ".claude/skills/gitnexus-impact/SKILL.md") || !strings.Contains(r.stdout, ".agents/skills/gitnexus-rename/SKILL.md") {
		t.Errorf("setup --skills:\n%s", r.stdout)
	}
	if out := gitStatus(t, repo); out != "?? .agents/\n?? .claude/\n?? AGENTS.md\n" {
		t.Errorf("git status after --skills and --agents-md:\n%s", out)
	}

	// Uninstall from anywhere: setup recorded the repository.
	r = mustRunHome(t, home, t.TempDir(), "setup", "--uninstall")
	if !strings.Contains(r.stdout, "AGENTS.md block") || !strings.Contains(r.stdout, "skill gitnexus-explore") {
		t.Errorf("uninstall:\n%s", r.stdout)
	}
	if out := gitStatus(t, repo); out != "" {
		t.Errorf("git status after uninstall:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json")); !os.IsNotExist(err) {
		t.Errorf("~/.claude.json, created by setup, outlives uninstall: %v", err)
	}
}

func gitStatus(t *testing.T, repo string) string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain", "--untracked-files=normal")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
