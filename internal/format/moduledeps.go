package format

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// ModuleDeps renders get_module_dependencies: the module, then what it
// depends on and what depends on it, one line per module with its counts.
func ModuleDeps(r *analysis.ModuleDepsResult) string {
	var b strings.Builder
	m := &r.Module
	fmt.Fprintf(&b, "%s %s (%d file%s): depends on %d module%s, used by %d module%s (file-level imports and calls).\n",
		kindWord(m.Kind, true), moduleWord(m.Name), m.Files, plural(m.Files), r.DownstreamTotal, plural(r.DownstreamTotal),
		r.UpstreamTotal, plural(r.UpstreamTotal))
	section := func(title string, links []analysis.ModuleLink, total int) {
		fmt.Fprintf(&b, "\n### %s (%d)\n\n", title, total)
		if len(links) == 0 {
			b.WriteString("None.\n")
			return
		}
		for _, l := range links {
			fmt.Fprintf(&b, "- %s: %d import%s, %d call%s", moduleWord(l.Module), l.Imports, plural(l.Imports), l.Calls, plural(l.Calls))
			if l.TestOnly {
				b.WriteString(" (tests only)")
			}
			b.WriteString("\n")
		}
		if len(links) < total {
			fmt.Fprintf(&b, "\nShowing %d of %d: the list is cut at %d.\n", len(links), total, analysis.MaxNavResults)
		}
	}
	section("Downstream: what it imports or calls", r.Downstream, r.DownstreamTotal)
	section("Upstream: what imports or calls it", r.Upstream, r.UpstreamTotal)
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
