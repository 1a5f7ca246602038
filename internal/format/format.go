// Package format turns tool results into short markdown for a language
// model: a headline sentence, tables with file:line references (1-based),
// and what was cut. It only renders; it computes nothing.
package format

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// Table renders a markdown table; cells have their pipes and newlines
// escaped.
func Table(headers []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(headers, " | ") + " |\n|")
	for range headers {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cell(c)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// Loc is a file:line reference.
func Loc(file string, line int) string {
	if line <= 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// Candidates renders the choices of an ambiguous name.
func Candidates(name string, cands []analysis.Candidate, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q is ambiguous: %d symbols have that name:\n\n", name, total)
	rows := make([][]string, 0, len(cands))
	for _, c := range cands {
		rows = append(rows, []string{c.UID, c.Kind, Loc(c.FilePath, c.StartLine), fmt.Sprintf("%.2f", c.Score)})
	}
	b.WriteString(Table([]string{"uid", "kind", "location", "score"}, rows))
	if total > len(cands) {
		fmt.Fprintf(&b, "\n%d more not shown.\n", total-len(cands))
	}
	return b.String()
}

// Symbol renders a symbol's headline: kind, qualified name, location and
// signature.
func Symbol(s *analysis.SymbolInfo) string {
	line := fmt.Sprintf("%s `%s` at %s", s.Kind, s.QualifiedName, Loc(s.FilePath, s.StartLine))
	if s.Signature != "" {
		line += "\n\n```\n" + s.Signature + "\n```"
	}
	return line
}

// layersOf is " (<layer>, <layer>, ...)": the layers of mods in their
// order, "" when none has one.
func layersOf(mods []analysis.ModuleImpact) string {
	var ls []string
	for _, m := range mods {
		if m.Layer != "" && !slices.Contains(ls, m.Layer) {
			ls = append(ls, m.Layer)
		}
	}
	if len(ls) == 0 {
		return ""
	}
	return " (" + strings.Join(ls, ", ") + ")"
}

// inLayer is ", <layer>" after a module's name, "" without a layer.
func inLayer(layer string) string {
	if layer == "" {
		return ""
	}
	return ", " + layer
}

// Context renders a symbol's relations by type and direction.
func Context(r *analysis.ContextResult) string {
	var b strings.Builder
	b.WriteString(Symbol(r.Symbol) + "\n")
	if r.Module != "" {
		fmt.Fprintf(&b, "\nModule: %s\n", r.Module)
		if r.Layer != "" {
			fmt.Fprintf(&b, "Layer: %s\n", r.Layer)
		}
	}
	if r.Symbol.Doc != "" {
		fmt.Fprintf(&b, "\n%s\n", r.Symbol.Doc)
	}
	section := func(title string, groups map[string]analysis.RelationGroup, incoming bool) {
		keys := make([]string, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			grp := groups[k]
			label := relationLabel(k, incoming)
			fmt.Fprintf(&b, "\n### %s %s (%d)\n\n", title, label, grp.Total)
			rows := make([][]string, 0, len(grp.Items))
			for _, it := range grp.Items {
				site := ""
				switch {
				case len(it.SiteLines) > 1:
					site = joinInts(it.SiteLines, 5)
				case it.SiteLine > 0:
					site = fmt.Sprint(it.SiteLine)
				}
				name := InFile(it.UID, it.Kind, it.FilePath, it.Name)
				if it.Test {
					name += " (test)"
				}
				rows = append(rows, []string{name, it.Kind, Loc(it.FilePath, it.StartLine), site, fmt.Sprintf("%s %.2f", it.Reason, it.Confidence)})
			}
			b.WriteString(Table([]string{"name", "kind", "location", "site lines", "reason"}, rows))
			if grp.Truncated {
				fmt.Fprintf(&b, "\n%d more not shown.\n", grp.Total-len(grp.Items))
			}
		}
	}
	section("Incoming:", r.Incoming, true)
	section("Outgoing:", r.Outgoing, false)
	if r.Community != nil {
		fmt.Fprintf(&b, "\nCommunity: %s (%d symbols, cohesion %.2f)\n", r.Community.Label, r.Community.Symbols, r.Community.Cohesion)
	}
	if len(r.Processes) > 0 {
		fmt.Fprintf(&b, "\n### Execution flows (%d)\n\n", len(r.Processes))
		rows := make([][]string, 0, len(r.Processes))
		for _, p := range r.Processes {
			rows = append(rows, []string{p.Label, fmt.Sprintf("%d of %d", p.Step, p.Steps), p.Type})
		}
		b.WriteString(Table([]string{"process", "step", "type"}, rows))
		if r.TotalProcesses > len(r.Processes) {
			fmt.Fprintf(&b, "\n%d more not shown.\n", r.TotalProcesses-len(r.Processes))
		}
	}
	if r.Symbol.Content != "" {
		fmt.Fprintf(&b, "\n### Source\n\n```%s\n%s\n```\n", r.Symbol.Language, strings.TrimRight(r.Symbol.Content, "\n"))
	}
	return b.String()
}

// relationLabel names a group from the symbol's point of view.
func relationLabel(key string, incoming bool) string {
	in := map[string]string{"calls": "called by", "imports": "imported by", "extends": "extended by",
		"implements": "implemented by", "has_method": "method of", "has_property": "property of",
		"references": "referenced by", "defines": "defined in", "contains": "contained in"}
	out := map[string]string{"calls": "calls", "imports": "imports", "extends": "extends",
		"implements": "implements", "has_method": "methods", "has_property": "properties",
		"references": "references", "defines": "defines", "contains": "contains"}
	m := out
	if incoming {
		m = in
	}
	if l, ok := m[key]; ok {
		return l
	}
	return key
}

// Impact renders affected symbols by depth with the risk.
func Impact(r *analysis.ImpactResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Impact of changing %s `%s` (%s): risk **%s**. %d direct, %d in total within %d levels, in %d module(s)%s.\n",
		r.Target.Kind, r.Target.QualifiedName, Loc(r.Target.FilePath, r.Target.StartLine), r.Risk,
		r.Summary.Direct, r.Summary.Total, r.MaxDepth, r.Summary.Modules, layersOf(r.AffectedModules))
	if !r.Exhaustive {
		b.WriteString("\nThe walk stopped at its size limit: the counts are lower bounds.\n")
	}
	labels := map[string]string{"1": "WILL BREAK (direct)", "2": "LIKELY AFFECTED", "3": "MAY NEED TESTING"}
	if r.Direction == "downstream" {
		labels = map[string]string{"1": "direct dependencies", "2": "their dependencies", "3": "deeper dependencies"}
	}
	for d := 1; d <= r.MaxDepth; d++ {
		key := fmt.Sprint(d)
		items, ok := r.ByDepth[key]
		if !ok && r.ByDepthCounts[key] == 0 {
			continue
		}
		label := labels[key]
		if label == "" {
			label = "transitive"
		}
		fmt.Fprintf(&b, "\n### Depth %s: %s (%d)\n\n", key, label, r.ByDepthCounts[key])
		if len(items) == 0 {
			if r.ByDepthCounts[key] > 0 && r.ByDepth != nil {
				fmt.Fprintf(&b, "None from offset %d.\n", r.Offset)
			}
			continue
		}
		if len(items) < r.ByDepthCounts[key] {
			fmt.Fprintf(&b, "Items %d–%d of %d:\n\n", r.Offset+1, r.Offset+len(items), r.ByDepthCounts[key])
		}
		rows := make([][]string, 0, len(items))
		for _, it := range items {
			rows = append(rows, []string{InFile(it.UID, it.Kind, it.FilePath, it.Name), it.Kind, Loc(it.FilePath, it.StartLine), it.Via, fmt.Sprintf("%.2f", it.Confidence)})
		}
		b.WriteString(Table([]string{"name", "kind", "location", "via", "confidence"}, rows))
	}
	if len(r.AffectedModules) > 0 {
		b.WriteString("\n### Modules\n\n")
		rows := [][]string{}
		for i, m := range r.AffectedModules {
			if i == 15 {
				rows = append(rows, []string{fmt.Sprintf("… %d more", len(r.AffectedModules)-i), "", "", ""})
				break
			}
			rows = append(rows, []string{m.Name, m.Layer, fmt.Sprint(m.Hits), yes(m.Direct)})
		}
		b.WriteString(Table([]string{"module", "layer", "affected", "direct"}, rows))
	}
	b.WriteString(affectedProcesses(r.AffectedProcesses))
	if len(r.AffectedCommunities) > 0 {
		b.WriteString("\n### Communities\n\n")
		rows := [][]string{}
		for i, c := range r.AffectedCommunities {
			if i == 15 {
				rows = append(rows, []string{fmt.Sprintf("… %d more", len(r.AffectedCommunities)-i), "", ""})
				break
			}
			rows = append(rows, []string{c.Label, fmt.Sprint(c.Hits), yes(c.Direct)})
		}
		b.WriteString(Table([]string{"community", "affected", "direct"}, rows))
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\nSome depths list only part of their items: ask again with offset %d.\n", r.NextOffset)
	}
	return b.String()
}

// affectedProcesses renders the execution flows an impact reaches, at
// most 15.
func affectedProcesses(ps []analysis.ProcessImpact) string {
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Execution flows\n\n")
	rows := [][]string{}
	for i, p := range ps {
		if i == 15 {
			rows = append(rows, []string{fmt.Sprintf("… %d more", len(ps)-i), "", "", "", ""})
			break
		}
		through := "a depth-1 symbol"
		if p.Target {
			through = "the target"
		}
		rows = append(rows, []string{p.Label, through, fmt.Sprintf("%d of %d", p.BrokenStep, p.Steps), fmt.Sprint(p.Hits), p.Type})
	}
	b.WriteString(Table([]string{"process", "through", "earliest broken step", "steps affected", "type"}, rows))
	return b.String()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// Changes renders what a diff touches.
func Changes(r *analysis.ChangesResult) string {
	var b strings.Builder
	scope := r.Scope
	if r.BaseRef != "" {
		scope += " against " + r.BaseRef
	}
	fmt.Fprintf(&b, "Changes (%s): %d file(s), %d symbol(s) changed, %d caller(s) affected within 2 levels; risk **%s**.\n",
		scope, r.Summary.Files, r.Summary.ChangedCount, r.Summary.AffectedCount, r.Risk)
	if len(r.ChangedSymbols) > 0 {
		b.WriteString("\n### Changed symbols\n\n")
		rows := [][]string{}
		for _, s := range r.ChangedSymbols {
			rows = append(rows, []string{s.QualifiedName, s.Kind, Loc(s.FilePath, s.StartLine), s.Change, fmt.Sprint(s.Lines)})
		}
		b.WriteString(Table([]string{"symbol", "kind", "location", "change", "lines"}, rows))
	}
	if len(r.Affected) > 0 {
		b.WriteString("\n### Affected callers\n\n")
		rows := [][]string{}
		for _, it := range r.Affected {
			rows = append(rows, []string{InFile(it.UID, it.Kind, it.FilePath, it.Name), it.Kind, Loc(it.FilePath, it.StartLine), fmt.Sprint(it.Depth), it.Via})
		}
		b.WriteString(Table([]string{"name", "kind", "location", "depth", "via"}, rows))
	}
	b.WriteString(affectedProcesses(r.AffectedProcesses))
	if len(r.Unmapped) > 0 {
		fmt.Fprintf(&b, "\nChanged lines outside any indexed symbol: %s\n", strings.Join(first(r.Unmapped, 10), ", "))
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\nThe lists are cut at the limit: %d changed symbols in all, %d affected.\n",
			r.Summary.ChangedCount, r.Summary.AffectedCount)
	}
	return b.String()
}

func first(xs []string, n int) []string {
	if len(xs) > n {
		return append(xs[:n:n], fmt.Sprintf("and %d more", len(xs)-n))
	}
	return xs
}

// Rename renders a rename plan or its application.
func Rename(r *analysis.RenameResult) string {
	var b strings.Builder
	verb := "Planned (dry run)"
	if r.Status == "applied" {
		verb = fmt.Sprintf("Applied %d edit(s) in %d file(s)", r.Applied, len(r.FilesChanged))
	}
	fmt.Fprintf(&b, "%s: rename %s `%s` (%s) to `%s`: %d graph edit(s), %d text match(es).\n",
		verb, r.Symbol.Kind, r.Symbol.QualifiedName, Loc(r.Symbol.FilePath, r.Symbol.StartLine), r.NewName, r.GraphEdits, r.TextEdits)
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\nWarning: %s\n", w)
	}
	if len(r.Edits) > 0 {
		b.WriteString("\n")
		rows := [][]string{}
		for i, e := range r.Edits {
			if i == 60 {
				row := []string{fmt.Sprintf("… %d more", len(r.Edits)-i), "", ""}
				if r.Status == "applied" {
					row = append(row, "")
				}
				rows = append(rows, row)
				break
			}
			row := []string{fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column), e.Tag, e.Context}
			if r.Status == "applied" {
				row = append(row, yes(e.Applied))
			}
			rows = append(rows, row)
		}
		header := []string{"position", "tag", "line"}
		if r.Status == "applied" {
			header = append(header, "applied")
		}
		b.WriteString(Table(header, rows))
	}
	if r.TextTruncated {
		b.WriteString("\nText matches were cut at the limit.\n")
	}
	if r.TextFiles > 0 {
		fmt.Fprintf(&b, "\nThe text search of this plan stopped after %d of %d files, at its time limit; applying the rename searches them all.\n", r.TextSearched, r.TextFiles)
	}
	return b.String()
}

// Query renders search hits by group.
func Query(r *analysis.QueryResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Search %q: %d symbol(s) found (%s).\n", r.Query, r.Total, r.Ranking)
	if r.Note != "" {
		fmt.Fprintf(&b, "%s.\n", strings.ToUpper(r.Note[:1])+r.Note[1:])
	}
	if len(r.CommonWords) > 0 {
		fmt.Fprintf(&b, "Left out as too common (much of the code holds them): %s.\n", strings.Join(r.CommonWords, ", "))
	}
	if len(r.Results) > 0 {
		b.WriteString("\n### Results, best first\n\n")
		rows := [][]string{}
		for _, h := range r.Results {
			rows = append(rows, []string{fmt.Sprint(h.Rank), h.QualifiedName, h.Kind, Loc(h.FilePath, h.StartLine),
				fmt.Sprint(h.Score), strings.Join(h.Matched, ", ")})
		}
		b.WriteString(Table([]string{"rank", "symbol", "kind", "location", "score", "matched"}, rows))
		for _, h := range r.Results {
			if h.Content != "" {
				fmt.Fprintf(&b, "\n%d. `%s`:\n```%s\n%s\n```\n", h.Rank, h.QualifiedName, h.Language, strings.TrimRight(h.Content, "\n"))
			}
		}
	}
	if len(r.Groups) > 1 {
		b.WriteString("\n### By file\n\n")
		for _, g := range r.Groups {
			ranks := make([]string, len(g.Ranks))
			for i, rk := range g.Ranks {
				ranks[i] = fmt.Sprint(rk)
			}
			fmt.Fprintf(&b, "- `%s` (%s%s): %s\n", g.File, g.Module, inLayer(g.Layer), strings.Join(ranks, ", "))
		}
	}
	if len(r.Files) > 0 {
		b.WriteString("\n### Files whose path matched\n\n")
		for _, f := range r.Files {
			fmt.Fprintf(&b, "- `%s`\n", f.Path)
		}
	}
	if len(r.Processes) > 0 {
		b.WriteString("\n### Execution flows\n\n")
		rows := [][]string{}
		for _, p := range r.Processes {
			var steps []string
			for _, s := range p.Symbols {
				steps = append(steps, fmt.Sprintf("%s (step %d)", s.Name, s.Step))
			}
			rows = append(rows, []string{p.Label, fmt.Sprintf("%.3f", p.Score), fmt.Sprint(p.Steps), strings.Join(steps, ", ")})
		}
		b.WriteString(Table([]string{"process", "score", "steps", "results"}, rows))
	}
	if r.Truncated {
		if more := r.Total - len(r.Results); more == 1 {
			b.WriteString("\n1 more symbol matched.\n")
		} else {
			fmt.Fprintf(&b, "\n%d more symbols matched.\n", more)
		}
	}
	return b.String()
}

// Overview renders a repository summary.
func Overview(name string, r *analysis.OverviewResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Repository %s: %d nodes, %d edges.\n\n", name, r.Nodes, r.Edges)
	b.WriteString(Table([]string{"kind", "count"}, counts(r.NodesByKind)))
	b.WriteString("\n")
	b.WriteString(Table([]string{"edge type", "count"}, counts(r.EdgesByType)))
	if len(r.Languages) > 0 {
		b.WriteString("\n")
		b.WriteString(Table([]string{"language", "files"}, counts(r.Languages)))
	}
	if len(r.Modules) > 0 {
		b.WriteString("\n### Biggest modules\n\n")
		rows := [][]string{}
		for _, m := range r.Modules {
			rows = append(rows, []string{m.Name, m.Layer, fmt.Sprint(m.Files), fmt.Sprint(m.Symbols)})
		}
		b.WriteString(Table([]string{"module", "layer", "files", "symbols"}, rows))
	}
	if len(r.EntryPoints) > 0 {
		b.WriteString("\n### Likely entry points\n\n")
		b.WriteString("Ranked as " + analysis.EntryRanking + ".\n\n")
		rows := [][]string{}
		for _, e := range r.EntryPoints {
			rows = append(rows, []string{e.QualifiedName, e.Kind, Loc(e.FilePath, e.StartLine), e.Group, fmt.Sprint(e.Reach)})
		}
		b.WriteString(Table([]string{"symbol", "kind", "location", "group", "reach (3 calls)"}, rows))
	}
	if len(r.Clusters) > 0 {
		b.WriteString("\n### Largest functional areas (communities)\n\n")
		rows := [][]string{}
		for _, c := range r.Clusters {
			rows = append(rows, []string{c.Label, fmt.Sprint(c.Symbols), fmt.Sprintf("%.2f", c.Cohesion), fmt.Sprint(c.Communities)})
		}
		b.WriteString(Table([]string{"area", "symbols", "cohesion", "communities"}, rows))
	}
	if len(r.Processes) > 0 {
		b.WriteString("\n### Main execution flows\n\n")
		rows := [][]string{}
		for _, p := range r.Processes {
			rows = append(rows, []string{p.Label, fmt.Sprint(p.Steps), p.Type})
		}
		b.WriteString(Table([]string{"process", "steps", "type"}, rows))
	}
	return b.String()
}

func counts(m map[string]int) [][]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	rows := make([][]string, 0, len(keys))
	for _, k := range keys {
		rows = append(rows, []string{k, fmt.Sprint(m[k])})
	}
	return rows
}

// joinInts lists up to max numbers separated by commas, then "…".
func joinInts(xs []int32, max int) string {
	var b strings.Builder
	for i, x := range xs {
		if i == max {
			fmt.Fprintf(&b, ", … (%d)", len(xs))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// InFile is a symbol's name as written in its file (Service.Place for a
// method), read off its id "<Kind>:<path>:<name in file>"; the location
// column gives the file. Other nodes keep their name.
func InFile(uid, kind, file, name string) string {
	return analysis.NameInFile(uid, kind, file, name)
}
