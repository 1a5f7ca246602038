package format

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// Trace renders trace: one line per call path, shortest first, each call
// with the line in the caller's file that makes it.
func Trace(r *analysis.TraceResult) string {
	var b strings.Builder
	from := InFile(r.From.UID, r.From.Kind, r.From.FilePath, r.From.Name)
	to := InFile(r.To.UID, r.To.Kind, r.To.FilePath, r.To.Name)
	ends := fmt.Sprintf("from `%s` (`%s`) to `%s` (`%s`)", from, Loc(r.From.FilePath, r.From.StartLine), to, Loc(r.To.FilePath, r.To.StartLine))
	if r.From.UID == r.To.UID {
		ends = fmt.Sprintf("from `%s` (`%s`) back to itself", from, Loc(r.From.FilePath, r.From.StartLine))
	}
	if len(r.Paths) == 0 {
		fmt.Fprintf(&b, "No call path %s within %s.\n", ends, count(r.MaxDepth, "call"))
		if r.Reverse > 0 {
			fmt.Fprintf(&b, "The other way, `%s` reaches `%s` in %s.\n", to, from, count(r.Reverse, "call"))
		}
	} else {
		fmt.Fprintf(&b, "%s %s within %s, shortest first (confidence: the product of the calls' confidences):\n\n",
			capitalize(count(len(r.Paths), "call path")), ends, count(r.MaxDepth, "call"))
		for i, p := range r.Paths {
			fmt.Fprintf(&b, "%d. %s, confidence %.2f: %s\n", i+1, count(p.Length, "call"), p.Confidence, tracePath(p))
		}
	}
	if r.More {
		fmt.Fprintf(&b, "\nMore paths may exist: %d were asked for.\n", r.Limit)
	}
	if !r.Exhaustive {
		b.WriteString("\nThe search stopped at its size limit: a path may be missing.\n")
	}
	return b.String()
}

func tracePath(p analysis.TracePath) string {
	parts := make([]string, len(p.Steps))
	for i, st := range p.Steps {
		name := "`" + InFile(st.UID, st.Kind, st.FilePath, st.Name) + "`"
		if i > 0 {
			site := st.CallFile
			if len(st.CallLines) > 0 {
				site = Loc(st.CallFile, int(st.CallLines[0]))
			}
			name += " (`" + site + "`"
			if st.Test {
				name += ", test"
			}
			name += ")"
		}
		parts[i] = name
	}
	return strings.Join(parts, " → ")
}

// count is n and what, plural when n is not 1.
func count(n int, what string) string { return fmt.Sprintf("%d %s%s", n, what, plural(n)) }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
