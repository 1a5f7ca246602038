package format

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// Definitions renders find_symbol: one line per definition site with its
// kind, location, module and signature.
func Definitions(r *analysis.DefinitionsResult) string {
	var b strings.Builder
	how := ""
	if r.Match == "case-insensitive" {
		how = " (no match with that case; these match ignoring case)"
	}
	switch r.Total {
	case 1:
		d := &r.Definitions[0]
		fmt.Fprintf(&b, "%s `%s` is defined at `%s` in %s%s.\n", kindWord(d.Kind, true), d.QualifiedName,
			Loc(d.FilePath, d.StartLine), moduleWord(d.Module), how)
		if d.Test {
			b.WriteString("It is test code.\n")
		}
		if d.Signature != "" {
			fmt.Fprintf(&b, "\n```\n%s\n```\n", d.Signature)
		}
		return b.String()
	default:
		fmt.Fprintf(&b, "%d definitions of `%s`%s:\n\n", r.Total, r.Name, how)
	}
	for _, d := range r.Definitions {
		fmt.Fprintf(&b, "- %s `%s` at `%s` in %s", kindWord(d.Kind, false), d.QualifiedName, Loc(d.FilePath, d.StartLine), moduleWord(d.Module))
		if d.Test {
			b.WriteString(" (test)")
		}
		if d.Signature != "" {
			fmt.Fprintf(&b, ": `%s`", strings.ReplaceAll(d.Signature, "`", "'"))
		}
		fmt.Fprintf(&b, " — uid `%s`\n", d.UID)
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\nShowing %d of %d: the answer is cut at %d.\n", r.Returned, r.Total, analysis.MaxNavResults)
	}
	return b.String()
}

// moduleWord names a module in a sentence.
func moduleWord(m string) string {
	if m == analysis.RootModule {
		return "the repository root"
	}
	return "`" + m + "`"
}
