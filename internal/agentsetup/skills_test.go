package agentsetup

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/backend"
)

// answerWords are the names in the guides that are neither tools nor
// parameters: fields of answers and the server's own name.
var answerWords = map[string]bool{"gitnexus": true, "main": true, "graph": true, "text_search": true, "review": true}

// The guides must name tools and parameters that exist: a tool renamed or
// a parameter dropped fails here, not in an agent's session.
func TestSkillsNameRealTools(t *testing.T) {
	tools, params := map[string]bool{}, map[string]bool{}
	for _, tool := range backend.Tools() {
		tools[tool.Name] = true
		for _, p := range tool.Params {
			params[p.Name] = true
		}
	}
	toolsDoc, err := os.ReadFile("../../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile("`([^`]+)`")
	ident := regexp.MustCompile(`^[A-Za-z_]+$`)
	param := regexp.MustCompile(`^([A-Za-z_]+): `)
	texts := map[string]string{"block.md": blockBody}
	for _, s := range Skills() {
		texts[s.Name] = s.Text
		if !strings.HasPrefix(s.Name, "gitnexus-") || frontMatterField(s.Text, "description") == "" {
			t.Errorf("%s: the front matter needs a gitnexus- name and a description", s.Name)
		}
		if lines := strings.Count(s.Text, "\n"); lines > 40 {
			t.Errorf("%s: %d lines; a guide stays short", s.Name, lines)
		}
	}
	used := map[string]bool{}
	for name, text := range texts {
		for _, m := range code.FindAllStringSubmatch(strings.ReplaceAll(text, "\n", " "), -1) {
			span := m[1]
			switch {
			case ident.MatchString(span):
				if !tools[span] && !params[span] && !answerWords[span] {
					t.Errorf("%s names `%s`, which is no tool or parameter", name, span)
				}
				used[span] = true
			case param.MatchString(span):
				if p := param.FindStringSubmatch(span)[1]; !params[p] {
					t.Errorf("%s passes `%s`, which no tool takes", name, p)
				}
			case strings.HasPrefix(span, "gitnexus://"):
				if !strings.Contains(string(toolsDoc), "`"+span+"`") {
					t.Errorf("%s names the resource %s, which docs/tools.md does not list", name, span)
				}
			}
		}
	}
	// Every tool but the repository list and the raw query is in some guide.
	for tool := range tools {
		if !used[tool] && tool != "list_repos" {
			t.Errorf("no guide mentions %s", tool)
		}
	}
}

// tree lists the files and directories under root.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestInstallSkills(t *testing.T) {
	o, home := testEnv(t)
	repo := filepath.Join(home, "src", "shop")
	// A skill of the same name the user wrote, and one of their own.
	foreign := filepath.Join(repo, ".agents", "skills", "gitnexus-debug", "SKILL.md")
	mine := filepath.Join(repo, ".claude", "skills", "deploy", "SKILL.md")
	for _, p := range []string{foreign, mine} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: mine\ndescription: mine\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := tree(t, repo)

	changes, err := InstallSkills(o, repo)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[Action]int{}
	for _, c := range changes {
		counts[c.Action]++
	}
	n := len(Skills())
	if counts[Created] != 2*n-1 || counts[Kept] != 1 {
		t.Errorf("actions %v, want %d created and the foreign skill kept", counts, 2*n-1)
	}
	for _, s := range Skills() {
		assertFile(t, filepath.Join(repo, ".claude", "skills", s.Name, "SKILL.md"), []byte(s.Text))
	}
	changes, err = InstallSkills(o, repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Action != Unchanged && c.Action != Kept {
			t.Errorf("second install: %s %s", c.Path, c.Action)
		}
	}

	changes, err = UninstallRepo(o, repo)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2*n-1 {
		t.Errorf("uninstall reported %d changes, want %d: %+v", len(changes), 2*n-1, changes)
	}
	if got := tree(t, repo); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("after uninstall:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	if repos, _ := RecordedRepos(o); len(repos) != 0 {
		t.Errorf("manifest still records %v", repos)
	}
}

func TestInstructionBlock(t *testing.T) {
	cases := []struct {
		name   string
		agents string // "" for no AGENTS.md
		claude string // "" for no CLAUDE.md
	}{
		{"no files", "", ""},
		{"agents.md", "# Shop\n\nRun `make test` before pushing.\n", ""},
		{"no final newline, CLAUDE.md", "# Shop", "See AGENTS.md.\n"},
		{"crlf", "# Shop\r\n\r\nNotes.\r\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, home := testEnv(t)
			repo := filepath.Join(home, "shop")
			if err := os.MkdirAll(repo, 0o755); err != nil {
				t.Fatal(err)
			}
			files := map[string]string{"AGENTS.md": tc.agents, "CLAUDE.md": tc.claude}
			for name, content := range files {
				if content != "" {
					if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if _, err := InstallBlock(o, repo); err != nil {
				t.Fatal(err)
			}
			agents, err := os.ReadFile(filepath.Join(repo, "AGENTS.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(agents), tc.agents) || strings.Count(string(agents), BlockBegin) != 1 {
				t.Errorf("AGENTS.md:\n%s", agents)
			}
			if _, err := os.Stat(filepath.Join(repo, "CLAUDE.md")); (err == nil) != (tc.claude != "") {
				t.Errorf("CLAUDE.md exists: %v, want %v", err == nil, tc.claude != "")
			}
			// An older block is replaced in place.
			old := strings.Replace(string(agents), "Prefer it", "Use it", 1)
			if old == string(agents) {
				t.Fatal("the block has changed: edit this test's older block")
			}
			if err := os.WriteFile(filepath.Join(repo, "AGENTS.md"), []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
			changes, err := InstallBlock(o, repo)
			if err != nil || changes[0].Action != Updated {
				t.Fatalf("update: %+v %v", changes, err)
			}
			assertFile(t, filepath.Join(repo, "AGENTS.md"), agents)

			if _, err := UninstallRepo(o, repo); err != nil {
				t.Fatal(err)
			}
			for name, content := range files {
				if content == "" {
					if _, err := os.Stat(filepath.Join(repo, name)); !os.IsNotExist(err) {
						t.Errorf("%s outlives uninstall", name)
					}
					continue
				}
				assertFile(t, filepath.Join(repo, name), []byte(content))
			}
		})
	}
}
