package format

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// Clusters renders the functional areas of a repository.
func Clusters(repo string, cs []analysis.ClusterInfo, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Functional areas of %s\n\n", repo)
	if len(cs) == 0 {
		b.WriteString("No communities were found: the repository has too few calls between its symbols.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Communities merged by label, largest first (%d communities in all). "+
		"Read one with `gitnexus://repo/%s/cluster/{label}`.\n\n", total, repo)
	rows := make([][]string, 0, len(cs))
	for _, c := range cs {
		rows = append(rows, []string{c.Label, fmt.Sprint(c.Symbols), fmt.Sprintf("%.2f", c.Cohesion), fmt.Sprint(c.Communities)})
	}
	b.WriteString(Table([]string{"area", "symbols", "cohesion", "communities"}, rows))
	return b.String()
}

// Cluster renders one functional area.
func Cluster(c *analysis.ClusterDetail) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Area %s\n\n", c.Label)
	rows := [][]string{}
	for _, cm := range c.Communities {
		rows = append(rows, []string{cm.Label, fmt.Sprint(cm.Symbols), fmt.Sprintf("%.2f", cm.Cohesion), strings.Join(cm.Keywords, ", ")})
	}
	b.WriteString(Table([]string{"community", "symbols", "cohesion", "keywords"}, rows))
	b.WriteString("\n### Members\n\n")
	rows = [][]string{}
	for _, m := range c.Members {
		rows = append(rows, []string{m.QualifiedName, m.Kind, Loc(m.FilePath, m.StartLine)})
	}
	b.WriteString(Table([]string{"symbol", "kind", "location"}, rows))
	if c.Truncated {
		b.WriteString("\nMore members are not listed.\n")
	}
	if len(c.Processes) > 0 {
		b.WriteString("\n### Execution flows starting here\n\n")
		rows = [][]string{}
		for _, p := range c.Processes {
			rows = append(rows, []string{p.Label, fmt.Sprint(p.Steps), p.Type})
		}
		b.WriteString(Table([]string{"process", "steps", "type"}, rows))
	}
	return b.String()
}

// Processes renders the list of execution flows.
func Processes(repo string, ps []analysis.ProcessRef, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Execution flows of %s\n\n", repo)
	if len(ps) == 0 {
		b.WriteString("No execution flows were found: no entry point calls through three or more symbols.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Most important first (entry points such as mains and handlers, then the longest), %d of %d. Read one with `gitnexus://repo/%s/process/{label}`.\n\n", len(ps), total, repo)
	rows := make([][]string, 0, len(ps))
	for _, p := range ps {
		rows = append(rows, []string{p.Label, fmt.Sprint(p.Steps), p.Type})
	}
	b.WriteString(Table([]string{"process", "steps", "type"}, rows))
	return b.String()
}

// Process renders one execution flow as ordered steps and as a Mermaid
// flowchart.
func Process(p *analysis.ProcessDetail) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Process %s\n\n%d steps, %s.\n\n", p.Label, p.Steps, strings.ReplaceAll(p.Type, "_", "-"))
	rows := make([][]string, 0, len(p.Trace))
	for _, s := range p.Trace {
		call := ""
		if s.CallLine > 0 {
			call = fmt.Sprint(s.CallLine)
		}
		rows = append(rows, []string{fmt.Sprint(s.Step), s.QualifiedName, s.Kind, Loc(s.FilePath, s.StartLine), s.Community, call})
	}
	b.WriteString(Table([]string{"step", "symbol", "kind", "location", "community", "called at line"}, rows))
	b.WriteString("\n```mermaid\nflowchart TD\n")
	for _, s := range p.Trace {
		fmt.Fprintf(&b, "  s%d[\"%d. %s\"]\n", s.Step, s.Step, mermaidText(s.QualifiedName))
	}
	for i := 1; i < len(p.Trace); i++ {
		fmt.Fprintf(&b, "  s%d --> s%d\n", p.Trace[i-1].Step, p.Trace[i].Step)
	}
	b.WriteString("```\n")
	return b.String()
}

// mermaidText makes text safe inside a quoted Mermaid label.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;").Replace(s)
}
