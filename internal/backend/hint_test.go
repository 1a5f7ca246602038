package backend

import (
	"strings"
	"testing"
)

// TestHintRenderings: one wording, rendered for an agent (tools and
// parameters) and for the command line (commands and flags).
func TestHintRenderings(t *testing.T) {
	cases := []struct {
		name       string
		h          Hint
		agent, cli string
	}{
		{"call with a uid", hint(call("impact", "target_uid", "Method:a/b.go:T.Get"), " before changing it."),
			`call impact with target_uid "Method:a/b.go:T.Get" before changing it.`,
			"run `gitnexus impact --target-uid Method:a/b.go:T.Get` before changing it."},
		{"a value that needs quoting", hint(call("context", "uid", "Function:a b.go:it's")),
			`call context with uid "Function:a b.go:it's"`,
			"run `gitnexus context --uid 'Function:a b.go:it'\\''s'`"},
		{"two arguments", hint(call("get_callers_of", "uid", "F:x", "depth", 2)),
			`call get_callers_of with uid "F:x" and depth 2`,
			"run `gitnexus get-callers-of --uid F:x --depth 2`"},
		{"a bare call", hint(call("list_repos"), "."), "call list_repos.", "run `gitnexus list`."},
		{"a next page", hint("more items: ", again("impact", "offset", 30), "."),
			"more items: call impact again with offset 30.",
			"more items: run the command again with `--offset 30`."},
		{"a setting", hint("apply with ", setting("dry_run", false), " or ", setting("include_text_matches", true)),
			"apply with dry_run false or include_text_matches true",
			"apply with `--dry-run=false` or `--include-text-matches`"},
		{"parameters", pickCandidate("target_uid", "file_path", "kind"),
			"call again with target_uid set to one of the candidates (or narrow with file_path or kind).",
			"run the command again with `--target-uid` set to one of the candidates (or narrow with `--file-path` or `--kind`)."},
		{"camel case", hint(param("relationTypes")), "relationTypes", "`--relation-types`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.h.Render(ForAgent); got != c.agent {
				t.Errorf("agent:\n got %s\nwant %s", got, c.agent)
			}
			if got := c.h.Render(ForCLI); got != c.cli {
				t.Errorf("cli:\n got %s\nwant %s", got, c.cli)
			}
		})
	}
}

// checkHint: every call in a hint names a tool of the table and only
// parameters that tool takes, every parameter named is some tool's, so
// that neither rendering points at something that does not exist; and the
// answer's text names no parameter (only the hint is rendered per reader).
// Every golden answer goes through it.
func checkHint(t *testing.T, res *Result) {
	t.Helper()
	params := map[string]bool{}
	for _, tool := range Tools() {
		for _, p := range tool.Params {
			params[p.Name] = true
		}
	}
	for _, p := range res.Hint {
		switch p.kind {
		case partCall, partAgain:
			tool, ok := LookupTool(p.tool)
			if !ok {
				t.Errorf("hint %q calls no tool %q", res.Hint.String(), p.tool)
				continue
			}
			for _, a := range p.args {
				if !takes(tool, a.name) {
					t.Errorf("hint %q: %s takes no %s", res.Hint.String(), p.tool, a.name)
				}
			}
		case partParam, partSetting:
			if !params[p.args[0].name] {
				t.Errorf("hint %q names no parameter %q", res.Hint.String(), p.args[0].name)
			}
		}
	}
	for _, word := range []string{"file_path", "`uid`", "target_uid", "dry_run"} {
		if strings.Contains(res.Text, word) {
			t.Errorf("the answer names %s outside its hint:\n%s", word, res.Text)
		}
	}
}

func takes(t *Tool, name string) bool {
	for _, p := range t.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

func TestCandidateHintsNameRealParameters(t *testing.T) {
	for _, tool := range []string{"context", "impact", "rename"} {
		tl, _ := LookupTool(tool)
		for _, p := range tl.Params {
			if strings.HasSuffix(p.Name, "uid") {
				checkHint(t, &Result{Hint: pickCandidate(p.Name, "file_path", "kind")})
			}
		}
	}
}
