package scala

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Implicit views of literals. Parser-combinator code writes `'-' ~> digits`
// and `"{" ~> members <~ "}"`: Char and String have no `~>`, so Scala
// converts the literal with the implicit def in scope that takes one
// (`implicit def literal(s: String): Parser[String]`, `implicit def
// accept(e: Elem): Parser[Elem]` with `type Elem = Char`). The extractor
// wraps such a receiver in a call of a made-up name (viewName) and Lookup
// resolves that name to the one implicit def of the enclosing classes and
// their supertypes whose parameter takes the literal's type; the call
// then follows the def's result. The conversion itself is not written and
// is no edge.

// viewPrefix starts the made-up name; a space keeps it apart from names
// of the program.
const viewPrefix = "implicit view of "

// viewName is the made-up name converting a literal of the builtin type
// typ ("String", "Char").
func viewName(typ string) string { return viewPrefix + typ }

// literalOperators are the symbolic methods Char and String have
// themselves (and StringOps): on them a literal is not converted.
var literalOperators = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "&": true, "|": true, "^": true,
	"<": true, ">": true, "<=": true, ">=": true, "==": true, "!=": true, "##": true,
	"<<": true, ">>": true, ">>>": true, "++": true, "+:": true, ":+": true, "->": true,
	"++:": true, "/:": true, ":\\": true, "=:=": true, "!": true,
}

// symbolic matches an operator name.
var symbolic = regexp.MustCompile(`^[!#%&*+\-/:<=>?@\\^|~]+$`)

// viewed wraps the receiver rx of the operator op in the conversion of a
// literal when Scala converts it.
func viewed(rx *lang.Expr, op string) *lang.Expr {
	if rx == nil || rx.Kind != lang.ExprLiteral {
		return rx
	}
	typ := viewedLiteral(rx.Name, op)
	if typ == "" {
		return rx
	}
	return &lang.Expr{Kind: lang.ExprCall, X: &lang.Expr{Kind: lang.ExprIdent, Name: viewName(typ)}, Args: []*lang.Expr{rx}}
}

// viewedLiteral is the builtin type a literal receiver of the operator op
// is converted from, "" when it is not converted.
func viewedLiteral(literal, op string) string {
	if !symbolic.MatchString(op) || literalOperators[op] {
		return ""
	}
	switch literal {
	case "string":
		return "String"
	case "char":
		return "Char"
	}
	return ""
}

// implicitDefs caches the names of the repository's implicit defs with
// one parameter, per program.
var implicitDefs struct {
	sync.Mutex
	program *lang.Program
	names   []string
}

// implicitDefNames are the names of the implicit defs of p that take one
// parameter, sorted, each once.
func implicitDefNames(p *lang.Program) []string {
	implicitDefs.Lock()
	defer implicitDefs.Unlock()
	if implicitDefs.program == p {
		return implicitDefs.names
	}
	seen := map[string]bool{}
	var names []string
	for _, f := range p.Files {
		for _, s := range f.Facts.Symbols {
			if s.Kind == graph.KindMethod && len(s.Params) == 1 && isImplicitDef(s.Signature) && !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	sort.Strings(names)
	implicitDefs.program, implicitDefs.names = p, names
	return names
}

// isImplicitDef reports whether a def's signature has the modifier
// implicit.
func isImplicitDef(sig string) bool {
	before, _, ok := strings.Cut(sig, "def ")
	return ok && strings.Contains(" "+before, " implicit ")
}

// lookupView resolves the made-up name of a view of typ: the implicit def
// of the enclosing classes (nearest first) whose parameter's type is typ
// or a type alias of it there. Several different ones: none.
func lookupView(p *lang.Program, c *lang.Ctx, typ string) (lang.Value, graph.Reason) {
	names := implicitDefNames(p)
	for t := p.EnclosingType(c.File, c.Scope); t != lang.NoSym; t = p.DeclaringType(t) {
		var found []lang.SymID
		for _, name := range names {
			ids, _ := p.FindMember(t, name)
			for _, id := range ids {
				s := p.Sym(id)
				if s.Kind == graph.KindMethod && len(s.Params) == 1 && isImplicitDef(s.Signature) &&
					aliasOf(p, t, s.Params[0].Type) == typ {
					found = append(found, id)
					break
				}
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return lang.SymsValue(found), graph.ReasonSelfReceiver
		}
		return lang.None(), ""
	}
	return lang.None(), ""
}

// aliasOf is the written type typ as seen from type t: a type member of t
// or its supertypes (`type Elem = Char`) stands for its definition.
func aliasOf(p *lang.Program, t lang.SymID, typ string) string {
	for range 4 {
		ids, _ := p.FindMember(t, typ)
		if len(ids) != 1 || p.Sym(ids[0]).Kind != graph.KindTypeAlias || p.Sym(ids[0]).Type == "" {
			return typ
		}
		typ = p.Sym(ids[0]).Type
	}
	return typ
}
