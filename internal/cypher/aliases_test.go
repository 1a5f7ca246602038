package cypher_test

import (
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/cypher"
)

// TestAliasesRunAsOurs checks the pairs of testdata/conformance/
// aliases.txt: a case in the seed documents' words and the case titled
// "<same title>: ours" give the same rows (or plan); only the header may
// differ, as column names keep the words as written. Every alias must
// have such a pair.
func TestAliasesRunAsOurs(t *testing.T) {
	s, err := parseScenario("testdata/conformance/aliases.txt")
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]string{}
	for _, c := range s.cases {
		byTitle[c.title] = c.want
	}
	var paired []string
	for _, c := range s.cases {
		base, ok := strings.CutSuffix(c.title, ": ours")
		if !ok {
			continue
		}
		theirs, ok := byTitle[base]
		if !ok {
			t.Errorf("%q has no case %q in the seed's words", c.title, base)
			continue
		}
		if body(theirs) != body(c.want) || strings.HasPrefix(c.want, "error:") {
			t.Errorf("%s:\n%s\n--- ours:\n%s", base, theirs, c.want)
		}
		for _, c2 := range s.cases {
			if c2.title == base {
				paired = append(paired, c2.query)
			}
		}
	}
	words := []string{}
	for a := range cypher.LabelAliases {
		words = append(words, ":"+a)
	}
	for a := range cypher.RelTypeAliases {
		words = append(words, ":"+a)
	}
	for a := range cypher.NodePropertyAliases {
		words = append(words, a)
	}
	for _, w := range words {
		found := false
		for _, q := range paired {
			found = found || strings.Contains(q, w)
		}
		if !found {
			t.Errorf("alias %s has no case paired with ours", w)
		}
	}
}

// body drops the header line of an expectation.
func body(want string) string {
	_, rest, _ := strings.Cut(want, "\n")
	return rest
}

func TestSchemaTextListsAliases(t *testing.T) {
	text := cypher.SchemaText(nil)
	var line string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Aliases") {
			line = l
		}
	}
	if line == "" {
		t.Fatal("the schema text has no Aliases line")
	}
	for _, w := range []string{"`Module` = `Package`", "CHANGED_ON", "MODIFIES", "`file_path` = `filePath`", "`path` = `filePath`",
		"`line` = `startLine`", "`time`", "`author`", "`DiffHunk`"} {
		if !strings.Contains(line, w) {
			t.Errorf("the Aliases line lacks %s: %s", w, line)
		}
	}
}
