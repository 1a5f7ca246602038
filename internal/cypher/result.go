package cypher

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Format renders a value as Cypher-like text with strings quoted: 'x', 42,
// 0.95, [1, 'a'], {a: 1}; a node as (its id); a relationship as
// (source id)-[:TYPE]->(target id); a path as the walk from its first node.
func (r *Result) Format(v Value) string {
	var b strings.Builder
	writeLiteral(&b, v, r.elementName)
	return b.String()
}

func (r *Result) elementName(v Value) string {
	switch v.kind {
	case KindNode:
		return "(" + r.g.Nodes[v.Node()].ID + ")"
	case KindRel:
		return "(" + r.g.Nodes[v.RelSrc()].ID + ")-[:" + v.et.String() + "]->(" + r.g.Nodes[v.RelDst()].ID + ")"
	case KindPath:
		p := v.Path()
		var b strings.Builder
		b.WriteString("(" + r.g.Nodes[p.Nodes[0]].ID + ")")
		for i, rel := range p.Rels {
			if rel.RelSrc() == p.Nodes[i] {
				b.WriteString("-[:" + rel.et.String() + "]->")
			} else {
				b.WriteString("<-[:" + rel.et.String() + "]-")
			}
			b.WriteString("(" + r.g.Nodes[p.Nodes[i+1]].ID + ")")
		}
		return b.String()
	}
	return literalString(v)
}

// cell renders a value for a markdown table: strings as they are (pipes
// escaped, line breaks as <br>), null as `null`, everything else as
// Format.
func (r *Result) cell(v Value) string {
	s := ""
	switch v.kind {
	case KindString:
		s = v.s
	default:
		s = r.Format(v)
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", "<br>")
	return strings.ReplaceAll(s, "\n", "<br>")
}

// Markdown renders the result for an agent: a table, then a note when the
// row limit cut it, then the warnings.
func (r *Result) Markdown() string {
	var b strings.Builder
	if len(r.Columns) > 0 {
		b.WriteString("|")
		for _, c := range r.Columns {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n|")
		for range r.Columns {
			b.WriteString("---|")
		}
		b.WriteByte('\n')
		for _, row := range r.Rows {
			b.WriteString("|")
			for _, v := range row {
				b.WriteString(" " + r.cell(v) + " |")
			}
			b.WriteByte('\n')
		}
	}
	if len(r.Rows) == 0 {
		b.WriteString("\n(no rows)\n")
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\nTruncated: only the first %d rows are shown. Add LIMIT, aggregate (count, collect), or narrow the MATCH to see the rest.\n", r.MaxRows)
	}
	for _, w := range r.Warnings {
		b.WriteString("\nWarning: " + w + "\n")
	}
	return b.String()
}

// AgentResult is what the cypher tool returns to an agent.
type AgentResult struct {
	Markdown  string `json:"markdown"`
	RowCount  int    `json:"row_count"`
	Truncated bool   `json:"truncated,omitempty"`
}

// ForAgent is the result as the cypher tool returns it.
func (r *Result) ForAgent() AgentResult {
	return AgentResult{Markdown: r.Markdown(), RowCount: len(r.Rows), Truncated: r.Truncated}
}

// JSON returns the result as JSON-ready data: rows are objects keyed by
// column; nodes, relationships and paths are objects (see JSONValue).
func (r *Result) JSON() map[string]any {
	rows := make([]map[string]any, len(r.Rows))
	for i, row := range r.Rows {
		obj := make(map[string]any, len(row))
		for j, v := range row {
			obj[r.Columns[j]] = r.JSONValue(v)
		}
		rows[i] = obj
	}
	out := map[string]any{"columns": r.Columns, "rows": rows, "row_count": len(r.Rows), "truncated": r.Truncated}
	if len(r.Warnings) > 0 {
		out["warnings"] = r.Warnings
	}
	return out
}

// JSONValue converts a value to data encoding/json writes: a node is an
// object of its label and in-memory properties (not doc and content, which
// a query can ask for), a relationship an object of its type, ends and
// properties, a path an object of its nodes and relationships. NaN and
// infinities are strings.
func (r *Result) JSONValue(v Value) any {
	switch v.kind {
	case KindNull:
		return nil
	case KindBool:
		return v.i != 0
	case KindInt:
		return v.i
	case KindFloat:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return formatFloat(v.f)
		}
		return json.Number(formatJSONFloat(v.f))
	case KindString:
		return v.s
	case KindList:
		out := make([]any, len(v.List()))
		for i, e := range v.List() {
			out[i] = r.JSONValue(e)
		}
		return out
	case KindMap:
		m := v.Map()
		out := make(map[string]any, len(m.Keys))
		for i, k := range m.Keys {
			out[k] = r.JSONValue(m.Vals[i])
		}
		return out
	case KindNode:
		n := &r.g.Nodes[v.Node()]
		return map[string]any{"id": n.ID, "label": n.Kind.String(), "name": n.Name, "qualifiedName": n.QualifiedName,
			"filePath": n.FilePath, "startLine": n.StartLine, "endLine": n.EndLine, "signature": n.Signature,
			"isExported": n.Exported, "language": n.Language}
	case KindRel:
		return map[string]any{"type": v.et.String(), "start": r.g.Nodes[v.RelSrc()].ID, "end": r.g.Nodes[v.RelDst()].ID,
			"confidence": json.Number(formatJSONFloat(v.relConfidence())), "reason": v.s, "line": v.line}
	case KindPath:
		p := v.Path()
		nodes := make([]any, len(p.Nodes))
		for i, n := range p.Nodes {
			nodes[i] = r.JSONValue(NodeValue(n))
		}
		rels := make([]any, len(p.Rels))
		for i, rel := range p.Rels {
			rels[i] = r.JSONValue(rel)
		}
		return map[string]any{"nodes": nodes, "relationships": rels}
	}
	return nil
}

func formatJSONFloat(f float64) string {
	s := formatFloat(f)
	if strings.ContainsAny(s, "eE") {
		return strings.Replace(strings.Replace(s, "e+", "e", 1), "E+", "e", 1)
	}
	return s
}
