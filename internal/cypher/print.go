package cypher

import (
	"strconv"
	"strings"
)

// exprString prints an expression as canonical Cypher: keywords upper case,
// single spaces, strings in single quotes. Plans print their expressions
// with it, and the resolver compares expressions by their printed form
// (ORDER BY and aggregation keys).
func exprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Literal:
		b.WriteString(literalString(e.Val))
	case *ListLit:
		b.WriteByte('[')
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x)
		}
		b.WriteByte(']')
	case *MapLit:
		writeMapLit(b, e)
	case *Param:
		b.WriteString("$" + quoteName(e.Name))
	case *Variable:
		b.WriteString(quoteName(e.Name))
	case *PropAccess:
		writeOperand(b, e.X)
		b.WriteString("." + quoteName(e.Name))
	case *IndexExpr:
		writeOperand(b, e.X)
		b.WriteByte('[')
		writeExpr(b, e.Index)
		b.WriteByte(']')
	case *SliceExpr:
		writeOperand(b, e.X)
		b.WriteByte('[')
		if e.From != nil {
			writeExpr(b, e.From)
		}
		b.WriteString("..")
		if e.To != nil {
			writeExpr(b, e.To)
		}
		b.WriteByte(']')
	case *UnaryExpr:
		if e.Op == "NOT" {
			b.WriteString("NOT ")
		} else {
			b.WriteString(e.Op)
		}
		writeOperand(b, e.X)
	case *BinaryExpr:
		writeOperand(b, e.L)
		b.WriteString(" " + e.Op + " ")
		writeOperand(b, e.R)
	case *IsNullExpr:
		writeOperand(b, e.X)
		if e.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *LabelExpr:
		writeOperand(b, e.X)
		writeLabels(b, e.Labels)
	case *CallExpr:
		b.WriteString(e.Name + "(")
		if e.Star {
			b.WriteByte('*')
		}
		if e.Distinct {
			b.WriteString("DISTINCT ")
		}
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *CaseExpr:
		b.WriteString("CASE")
		if e.Subject != nil {
			b.WriteByte(' ')
			writeExpr(b, e.Subject)
		}
		for i := range e.Whens {
			b.WriteString(" WHEN ")
			writeExpr(b, e.Whens[i])
			b.WriteString(" THEN ")
			writeExpr(b, e.Thens[i])
		}
		if e.Else != nil {
			b.WriteString(" ELSE ")
			writeExpr(b, e.Else)
		}
		b.WriteString(" END")
	case *ListComp:
		b.WriteString("[" + quoteName(e.Var) + " IN ")
		writeExpr(b, e.List)
		if e.Where != nil {
			b.WriteString(" WHERE ")
			writeExpr(b, e.Where)
		}
		if e.Proj != nil {
			b.WriteString(" | ")
			writeExpr(b, e.Proj)
		}
		b.WriteByte(']')
	case *Quantifier:
		b.WriteString(e.Kind + "(" + quoteName(e.Var) + " IN ")
		writeExpr(b, e.List)
		b.WriteString(" WHERE ")
		writeExpr(b, e.Where)
		b.WriteByte(')')
	case *ReduceExpr:
		b.WriteString("reduce(" + quoteName(e.Acc) + " = ")
		writeExpr(b, e.Init)
		b.WriteString(", " + quoteName(e.Var) + " IN ")
		writeExpr(b, e.List)
		b.WriteString(" | ")
		writeExpr(b, e.Expr)
		b.WriteByte(')')
	case *PatternExpr:
		writePattern(b, e.Part)
	case *PatternComp:
		b.WriteByte('[')
		writePattern(b, e.Part)
		if e.Where != nil {
			b.WriteString(" WHERE ")
			writeExpr(b, e.Where)
		}
		b.WriteString(" | ")
		writeExpr(b, e.Proj)
		b.WriteByte(']')
	case *SubqueryExpr:
		if e.Count {
			b.WriteString("COUNT { ")
		} else {
			b.WriteString("EXISTS { ")
		}
		for i, p := range e.Pattern {
			if i > 0 {
				b.WriteString(", ")
			}
			writePattern(b, p)
		}
		if e.Where != nil {
			b.WriteString(" WHERE ")
			writeExpr(b, e.Where)
		}
		b.WriteString(" }")
	case *MapProjection:
		b.WriteString(quoteName(e.X.Name) + "{")
		for i, it := range e.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			switch it.Kind {
			case "all":
				b.WriteString(".*")
			case "prop":
				b.WriteString("." + quoteName(it.Key))
			case "var":
				b.WriteString(quoteName(it.Key))
			default:
				b.WriteString(quoteName(it.Key) + ": ")
				writeExpr(b, it.Expr)
			}
		}
		b.WriteByte('}')
	case *slotExpr:
		b.WriteString(quoteName(e.name))
	default:
		b.WriteString("?")
	}
}

// writeOperand wraps operators in parentheses so that the printed form
// shows the structure.
func writeOperand(b *strings.Builder, e Expr) {
	switch e.(type) {
	case *BinaryExpr, *UnaryExpr, *IsNullExpr:
		b.WriteByte('(')
		writeExpr(b, e)
		b.WriteByte(')')
	default:
		writeExpr(b, e)
	}
}

func writeMapLit(b *strings.Builder, m *MapLit) {
	b.WriteByte('{')
	for i, k := range m.Keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(k) + ": ")
		writeExpr(b, m.Vals[i])
	}
	b.WriteByte('}')
}

func writeLabels(b *strings.Builder, groups [][]string) {
	for _, g := range groups {
		b.WriteByte(':')
		for i, l := range g {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(quoteName(l))
		}
	}
}

func writePattern(b *strings.Builder, p *PatternPart) {
	if p.PathVar != "" {
		b.WriteString(quoteName(p.PathVar) + " = ")
	}
	if p.Shortest != AllPaths {
		b.WriteString(p.Shortest.String() + "(")
		defer b.WriteByte(')')
	}
	for i, n := range p.Nodes {
		if i > 0 {
			writeRel(b, p.Rels[i-1])
		}
		b.WriteByte('(')
		b.WriteString(quoteName(n.Var))
		writeLabels(b, n.Labels)
		if n.Props != nil {
			if n.Var != "" || len(n.Labels) > 0 {
				b.WriteByte(' ')
			}
			writeMapLit(b, n.Props)
		}
		b.WriteByte(')')
	}
}

func writeRel(b *strings.Builder, r *RelPattern) {
	if r.Dir == DirIn {
		b.WriteByte('<')
	}
	b.WriteString("-[")
	b.WriteString(quoteName(r.Var))
	for i, t := range r.Types {
		if i == 0 {
			b.WriteByte(':')
		} else {
			b.WriteByte('|')
		}
		b.WriteString(quoteName(t))
	}
	if r.VarLen {
		b.WriteString(varLenString(r.Min, r.Max))
	}
	if r.Props != nil {
		b.WriteByte(' ')
		writeMapLit(b, r.Props)
	}
	b.WriteString("]-")
	if r.Dir == DirOut {
		b.WriteByte('>')
	}
}

func varLenString(lo, hi int) string {
	s := "*" + strconv.Itoa(lo) + ".."
	if hi >= 0 {
		s += strconv.Itoa(hi)
	}
	return s
}

// quoteName returns a name as Cypher source: bare when it is a simple
// identifier, else in backticks.
func quoteName(s string) string {
	if s == "" || s[0] == '#' {
		return s // empty, or a hidden name the planner made up
	}
	simple := true
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			simple = false
			break
		}
	}
	if simple {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}
