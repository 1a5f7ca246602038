package cypher

import (
	"fmt"
	"slices"
	"strings"
)

// Aliases: the words of other GitNexus write-ups that agents paste into
// queries (the label Module, the relationship CHANGED_ON, snake_case
// properties). Each is resolved once, before planning, by rewriting the
// parsed query to our word, so a query written with an alias plans (and
// EXPLAINs) and runs exactly as the one written with ours; only column
// names keep the words as written. A word with no single equivalent is a
// semantic error that shows the right form, never a silent null.

// LabelAliases maps a label alias to our label.
var LabelAliases = map[string]string{
	"Module": "Package",
}

// RelTypeAlias is a relationship type alias: our edge type, and whether
// the alias points the other way (CHANGED_ON goes File → Commit,
// MODIFIES Commit → File).
type RelTypeAlias struct {
	Type     string
	Reversed bool
	From, To string // the labels at the ends of the alias, as written
}

// RelTypeAliases maps a relationship type alias to ours.
var RelTypeAliases = map[string]RelTypeAlias{
	"CHANGED_ON": {Type: "MODIFIES", Reversed: true, From: "File", To: "Commit"},
}

// NodePropertyAliases maps a node property alias to our property. They
// apply to nodes only: `line` and `path` are also real relationship
// properties (the call or import line; the file's path in a commit).
var NodePropertyAliases = map[string]string{
	"file_path": "filePath",
	"path":      "filePath",
	"line":      "startLine",
}

// unmappedNodeProperties are node property words with no single
// equivalent, with the right form.
var unmappedNodeProperties = map[string]string{
	"time":          "on Commit nodes use `authoredAt` (when it was written) or `committedAt` (when it was committed), RFC 3339 strings that sort in time order: ORDER BY c.committedAt DESC",
	"author":        "on Commit nodes use `authorName` or `authorEmail`",
	"previous_path": "File nodes have `previousPaths`, the list of the paths before renames, newest first: WHERE $path IN f.previousPaths",
}

// unmappedLabels are label words with no equivalent, with the right form.
var unmappedLabels = map[string]string{
	"DiffHunk": "a commit's changes to a symbol are the CHANGES relationship: (c:Commit)-[r:CHANGES]->(s) with r.additions, r.deletions",
}

// aliasSummary is the one line of the schema text that lists the aliases.
func aliasSummary() string {
	var parts []string
	for _, a := range sortedKeys(LabelAliases) {
		parts = append(parts, fmt.Sprintf("label `%s` = `%s`", a, LabelAliases[a]))
	}
	for _, a := range sortedKeys(RelTypeAliases) {
		t := RelTypeAliases[a]
		if t.Reversed {
			parts = append(parts, fmt.Sprintf("`(:%s)-[:%s]->(:%s)` = `(:%s)-[:%s]->(:%s)`", t.From, a, t.To, t.To, t.Type, t.From))
		} else {
			parts = append(parts, fmt.Sprintf("`%s` = `%s`", a, t.Type))
		}
	}
	var props []string
	for _, a := range sortedKeys(NodePropertyAliases) {
		props = append(props, fmt.Sprintf("`%s` = `%s`", a, NodePropertyAliases[a]))
	}
	parts = append(parts, "node properties "+strings.Join(props, ", "))
	return "Aliases (words of other write-ups; they run exactly as ours): " + strings.Join(parts, "; ") +
		". No equivalent (an error shows ours): properties " + quoteAll(sortedKeys(unmappedNodeProperties)) +
		"; label " + quoteAll(sortedKeys(unmappedLabels)) + ".\n"
}

func quoteAll(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// element kinds of a variable, as far as the alias pass can tell.
const (
	aliasNode = 1 << iota
	aliasRel
	aliasOther
)

// resolveAliases rewrites the aliases of every part of stmt to our words
// and reports the words that have no equivalent.
func (c *compiler) resolveAliases(stmt *Statement) {
	for _, q := range stmt.Parts {
		r := &aliasResolver{c: c, kinds: map[string]int{}}
		r.query(q, r.bind)
		r.query(q, r.rewrite)
	}
}

// aliasResolver knows which variables of one single query are nodes:
// property aliases apply to those only (a name bound to a node in one
// place and to something else in another is left alone).
type aliasResolver struct {
	c       *compiler
	kinds   map[string]int
	exprsOf func(...Expr) // the expression visitor of the current pass
}

func (r *aliasResolver) isNode(e Expr) bool {
	v, ok := e.(*Variable)
	return ok && r.kinds[v.Name] == aliasNode
}

// query visits every pattern and expression of q in order with visit,
// which sees patterns first and then expressions.
func (r *aliasResolver) query(q *SingleQuery, visit func(part *PatternPart, e Expr)) {
	exprs := func(es ...Expr) {
		for _, e := range es {
			walkExpr(e, func(x Expr) bool {
				switch x := x.(type) {
				case *PatternExpr:
					r.pattern(x.Part, visit)
				case *PatternComp:
					r.pattern(x.Part, visit)
				case *SubqueryExpr:
					for _, p := range x.Pattern {
						r.pattern(p, visit)
					}
				}
				visit(nil, x)
				return true
			})
		}
	}
	r.exprsOf = exprs
	for _, cl := range q.Clauses {
		switch cl := cl.(type) {
		case *MatchClause:
			for _, p := range cl.Pattern {
				r.pattern(p, visit)
			}
			exprs(cl.Where)
		case *UnwindClause:
			exprs(cl.Expr)
			r.declare(cl.Var, aliasOther)
		case *WithClause:
			r.projection(cl.Proj, exprs)
			exprs(cl.Where)
		case *ReturnClause:
			r.projection(cl.Proj, exprs)
		}
	}
}

func (r *aliasResolver) projection(p *Projection, exprs func(...Expr)) {
	for _, it := range p.Items {
		exprs(it.Expr)
		if it.Alias != "" {
			kind := aliasOther
			if v, ok := it.Expr.(*Variable); ok && r.kinds[v.Name] != 0 {
				kind = r.kinds[v.Name]
			}
			r.declare(it.Alias, kind)
		}
	}
	for _, s := range p.Order {
		exprs(s.Expr)
	}
	exprs(p.Skip, p.Limit)
}

func (r *aliasResolver) declare(name string, kind int) {
	if name != "" {
		r.kinds[name] |= kind
	}
}

// pattern visits a pattern part: the part itself, then the expressions of
// its property maps.
func (r *aliasResolver) pattern(p *PatternPart, visit func(*PatternPart, Expr)) {
	visit(p, nil)
	for _, n := range p.Nodes {
		if n.Props != nil {
			r.exprsOf(n.Props.Vals...)
		}
	}
	for _, rel := range p.Rels {
		if rel.Props != nil {
			r.exprsOf(rel.Props.Vals...)
		}
	}
}

// bind records the kinds of the variables of patterns and of the
// variables that expressions introduce.
func (r *aliasResolver) bind(p *PatternPart, e Expr) {
	if p != nil {
		for _, n := range p.Nodes {
			r.declare(n.Var, aliasNode)
		}
		for _, rel := range p.Rels {
			r.declare(rel.Var, aliasRel)
		}
		r.declare(p.PathVar, aliasOther)
		return
	}
	switch e := e.(type) {
	case *ListComp:
		r.declare(e.Var, aliasOther)
	case *Quantifier:
		r.declare(e.Var, aliasOther)
	case *ReduceExpr:
		r.declare(e.Var, aliasOther)
		r.declare(e.Acc, aliasOther)
	}
}

// rewrite replaces the aliases in a pattern part or an expression.
func (r *aliasResolver) rewrite(p *PatternPart, e Expr) {
	if p != nil {
		for _, n := range p.Nodes {
			r.labels(n.Labels, n.Pos)
			if n.Props != nil {
				for i, k := range n.Props.Keys {
					n.Props.Keys[i] = r.nodeProperty(k, n.Props.Vals[i].exprPos())
				}
			}
		}
		for i, rel := range p.Rels {
			r.relTypes(rel, p.Nodes[i], p.Nodes[i+1])
		}
		return
	}
	switch e := e.(type) {
	case *PropAccess:
		if r.isNode(e.X) {
			e.Name = r.nodeProperty(e.Name, e.Pos)
		}
	case *LabelExpr:
		r.labels(e.Labels, e.Pos)
		for _, group := range e.Labels {
			for i, l := range group {
				if a, ok := RelTypeAliases[l]; ok {
					group[i] = a.Type
				}
			}
		}
	case *MapProjection:
		if !r.isNode(e.X) {
			return
		}
		for i, it := range e.Items {
			if it.Kind != "prop" {
				continue
			}
			// The key stays as written; the value is read from ours.
			if name := r.nodeProperty(it.Key, e.Pos); name != it.Key {
				e.Items[i] = MapProjItem{Kind: "key", Key: it.Key, Expr: &PropAccess{Pos: e.Pos, X: e.X, Name: name}}
			}
		}
	}
}

// nodeProperty returns our name for a node property, reporting the words
// that have none.
func (r *aliasResolver) nodeProperty(name string, pos Pos) string {
	if ours, ok := NodePropertyAliases[name]; ok {
		return ours
	}
	if hint, ok := unmappedNodeProperties[name]; ok {
		r.c.errorf(pos, SemanticError, "nodes have no property `%s`: %s", name, hint)
	}
	return name
}

func (r *aliasResolver) labels(groups [][]string, pos Pos) {
	for _, group := range groups {
		for i, l := range group {
			if ours, ok := LabelAliases[l]; ok {
				group[i] = ours
			} else if hint, ok := unmappedLabels[l]; ok {
				r.c.errorf(pos, SemanticError, "label `%s` does not exist: %s", l, hint)
			}
		}
	}
}

// relTypes rewrites a relationship type alias of a pattern, turning the
// relationship around when the alias points the other way.
func (r *aliasResolver) relTypes(rel *RelPattern, left, right *NodePattern) {
	for i, t := range rel.Types {
		a, ok := RelTypeAliases[t]
		if !ok {
			continue
		}
		if len(rel.Types) > 1 {
			r.c.errorf(rel.Pos, SemanticError, "`%s` cannot be combined with other types in one relationship: it is `%s` the other way round; "+
				"match it in a pattern of its own, as (:%s)-[:%s]->(:%s)", t, a.Type, a.From, t, a.To)
			return
		}
		rel.Types[i] = a.Type
		if !a.Reversed {
			return
		}
		from, to := left, right
		if rel.Dir == DirIn {
			from, to = right, left
		}
		if rel.Dir != DirBoth && (onlyLabel(from, a.To) || onlyLabel(to, a.From)) {
			r.c.errorf(rel.Pos, SemanticError, "`%s` goes from a %s to a %s: write (f:%s)-[:%s]->(c:%s), or ours, (c:%s)-[:%s]->(f:%s)",
				t, a.From, a.To, a.From, t, a.To, a.To, a.Type, a.From)
			return
		}
		switch rel.Dir {
		case DirOut:
			rel.Dir = DirIn
		case DirIn:
			rel.Dir = DirOut
		}
	}
}

// onlyLabel reports whether a node pattern is labelled label and nothing
// else.
func onlyLabel(n *NodePattern, label string) bool {
	return len(n.Labels) == 1 && len(n.Labels[0]) == 1 && n.Labels[0][0] == label
}
