package backend

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestToolsDocumented keeps docs/tools.md in step with the tool table: each
// tool has a section whose parameter table is generated from its Params
// (rewritten with -update).
func TestToolsDocumented(t *testing.T) {
	const path = "../../docs/tools.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, tool := range Tools() {
		block := regexp.MustCompile(`(?s)<!-- params:` + regexp.QuoteMeta(tool.Name) + ` -->\n.*?<!-- end -->`)
		if !block.MatchString(doc) {
			t.Errorf("docs/tools.md has no <!-- params:%s --> block", tool.Name)
			continue
		}
		want := "<!-- params:" + tool.Name + " -->\n" + paramTable(tool) + "<!-- end -->"
		if *update {
			doc = block.ReplaceAllLiteralString(doc, want)
		} else if got := block.FindString(doc); got != want {
			t.Errorf("docs/tools.md: the parameters of %s are out of date (go test ./internal/backend -run TestToolsDocumented -update):\n%s\nwant:\n%s", tool.Name, got, want)
		}
		if !strings.Contains(doc, "### "+tool.Name+"\n") {
			t.Errorf("docs/tools.md has no section for %s", tool.Name)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func paramTable(t *Tool) string {
	if len(t.Params) == 0 {
		return "No parameters.\n"
	}
	var b strings.Builder
	b.WriteString("| parameter | type | default | description |\n|---|---|---|---|\n")
	for _, p := range t.Params {
		name := "`" + p.Name + "`"
		if p.Required {
			name += " (required)"
		}
		def := ""
		if p.Default != nil {
			def = fmt.Sprintf("`%v`", p.Default)
		}
		desc := p.Description
		var bounds []string
		if p.Min != nil {
			bounds = append(bounds, fmt.Sprintf("min %v", *p.Min))
		}
		if p.Max != nil {
			bounds = append(bounds, fmt.Sprintf("max %v", *p.Max))
		}
		if len(p.Enum) > 0 {
			bounds = append(bounds, "one of "+strings.Join(p.Enum, ", "))
		}
		if len(p.Aliases) > 0 {
			bounds = append(bounds, "also accepted as "+strings.Join(p.Aliases, ", "))
		}
		if len(bounds) > 0 {
			desc += " (" + strings.Join(bounds, "; ") + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, p.Type, def, strings.ReplaceAll(desc, "|", "\\|"))
	}
	return b.String()
}
