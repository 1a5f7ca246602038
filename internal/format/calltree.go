package format

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// inlineItems is how many callers or callees a sentence names before "and
// N more".
const inlineItems = 10

// CallTree renders get_callers_of and get_callees_of: a sentence naming the
// symbol and its direct callers (or callees) with the lines of the calls, a
// line placing them in their modules, then one table per depth.
func CallTree(r *analysis.CallTreeResult) string {
	var b strings.Builder
	s := &r.Symbol
	name := InFile(s.UID, s.Kind, s.FilePath, s.Name)
	callers := r.Direction == "callers"
	fmt.Fprintf(&b, "%s `%s` is defined at `%s`", kindWord(s.Kind, true), name, Loc(s.FilePath, s.StartLine))
	if r.Module != "" {
		fmt.Fprintf(&b, " (%s)", r.Module)
	}
	recursion, nothing := "", "nothing"
	if r.Recursive {
		recursion, nothing = "It also calls itself.\n", "nothing else"
	}
	if r.Total == 0 {
		if callers {
			fmt.Fprintf(&b, "; %s in the repository calls it%s.\n", nothing, withinDepth(r.Depth))
		} else {
			fmt.Fprintf(&b, "; it calls %s in the repository%s.\n", nothing, withinDepth(r.Depth))
		}
		return b.String() + recursion
	}
	verb := "calls directly"
	if callers {
		verb = "called directly from"
	}
	first := r.Levels[0]
	fmt.Fprintf(&b, "; %s: %s.\n", verb, inlineCalls(first))
	b.WriteString(recursion)
	for _, lv := range r.Levels[1:] {
		what := "what those call"
		if callers {
			what = "callers of those"
		}
		fmt.Fprintf(&b, "At depth %d (%s): %s.\n", lv.Depth, what, inlineCalls(lv))
	}
	if line := placeModules(r.Modules); line != "" {
		b.WriteString(line + "\n")
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\nShowing %d of %d %s, the nearest first: the answer is cut at %d.\n", r.Returned, r.Total, r.Direction, analysis.MaxNavResults)
	}
	if !r.Exhaustive {
		b.WriteString("\nThe walk stopped at its size limit: the counts are lower bounds.\n")
	}
	for _, lv := range r.Levels {
		label := "direct " + r.Direction
		if lv.Depth > 1 {
			label = fmt.Sprintf("%s of depth %d", r.Direction, lv.Depth-1)
		}
		fmt.Fprintf(&b, "\n### Depth %d: %s (%d)\n\n", lv.Depth, label, lv.Count)
		if len(lv.Items) == 0 {
			b.WriteString("Not listed: the answer is cut.\n")
			continue
		}
		rows := make([][]string, 0, len(lv.Items))
		for _, it := range lv.Items {
			n := InFile(it.UID, it.Kind, it.FilePath, it.Name)
			if it.Test {
				n += " (test)"
			}
			via := ""
			if lv.Depth > 1 {
				via = viaName(it.Via)
			}
			rows = append(rows, []string{n, it.Kind, callSite(it), Loc(it.FilePath, it.StartLine), it.Module, via,
				fmt.Sprintf("%s %.2f", it.Reason, it.Confidence)})
		}
		header := []string{"caller", "kind", "call site", "defined at", "module", "via", "how"}
		if !callers {
			header[0] = "callee"
		}
		if lv.Depth == 1 {
			header = append(header[:5], header[6])
			for i := range rows {
				rows[i] = append(rows[i][:5], rows[i][6])
			}
		}
		b.WriteString(Table(header, rows))
	}
	return b.String()
}

func withinDepth(depth int) string {
	if depth == 1 {
		return ""
	}
	return fmt.Sprintf(" within %d levels", depth)
}

// kindWord is a kind as a word in a sentence: "Method", or "method" inside
// one.
func kindWord(kind string, capital bool) string {
	if kind == "" {
		return "Symbol"
	}
	if capital {
		return strings.ToUpper(kind[:1]) + kind[1:]
	}
	return strings.ToLower(kind[:1]) + kind[1:]
}

// inlineCalls names the first items of a level with their call sites.
func inlineCalls(lv analysis.CallLevel) string {
	var parts []string
	for i, it := range lv.Items {
		if i == inlineItems {
			break
		}
		p := fmt.Sprintf("`%s` (`%s`", InFile(it.UID, it.Kind, it.FilePath, it.Name), callSite(it))
		if it.Test {
			p += ", test"
		}
		parts = append(parts, p+")")
	}
	if more := lv.Count - len(parts); more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(parts, ", ")
}

// callSite is where a call is written: file:line, further lines after
// commas.
func callSite(it analysis.CallItem) string {
	if len(it.CallLines) == 0 {
		return it.CallFile
	}
	s := Loc(it.CallFile, int(it.CallLines[0]))
	for _, l := range it.CallLines[1:] {
		s += fmt.Sprintf(",%d", l)
	}
	return s
}

// placeModules is the one line placing the listed items in their modules,
// tests last and marked.
func placeModules(mods []analysis.CallModule) string {
	if len(mods) == 0 {
		return ""
	}
	var code, tests []string
	for _, m := range mods {
		name := m.Name
		var tags []string
		if m.Layer != "" && !m.Test {
			tags = append(tags, m.Layer)
		}
		if len(m.Communities) > 0 {
			tags = append(tags, "area "+strings.Join(first(m.Communities, 3), ", "))
		}
		if len(tags) > 0 {
			name += " [" + strings.Join(tags, "; ") + "]"
		}
		part := fmt.Sprintf("%s (%s)", name, strings.Join(first(m.Symbols, 5), ", "))
		if m.Test {
			tests = append(tests, part)
		} else {
			code = append(code, part)
		}
	}
	line := "By module: "
	if len(code) > 0 {
		line += strings.Join(code, "; ")
	}
	if len(tests) > 0 {
		if len(code) > 0 {
			line += "; "
		}
		line += "tests: " + strings.Join(tests, "; ")
	}
	return line + "."
}

// viaName is the name in its file of the symbol with id uid.
func viaName(uid string) string {
	_, rest, ok := strings.Cut(uid, ":")
	if !ok {
		return uid
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		return rest[i+1:]
	}
	return rest
}
