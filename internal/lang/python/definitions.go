package python

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Functions and classes: what a definition declares (kind, qualified name,
// parameters without the receiver, decorators, bases, docstring, header)
// and which definition encloses it.

// defNode is a function or class definition found by the query.
type defNode struct {
	node, body ts.Node
	class      bool
}

// addDefs adds the functions and classes in document order; the open
// bodies form a stack, so each definition's parent is the innermost body
// containing it.
func (x *extraction) addDefs(defs []defNode) {
	type open struct {
		sym        int // -1 for a skipped definition
		start, end uint32
	}
	var stack []open
	for i := range defs {
		d := &defs[i]
		pos := uint32(d.node.StartByte())
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if pos >= top.start && pos < top.end {
				break
			}
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			if parent = stack[len(stack)-1].sym; parent < 0 {
				// Inside a skipped definition: skipped too.
				stack = append(stack, open{sym: -1, start: uint32(d.body.StartByte()), end: uint32(d.body.EndByte())})
				continue
			}
		}
		idx := x.addDef(d, parent)
		stack = append(stack, open{sym: idx, start: uint32(d.body.StartByte()), end: uint32(d.body.EndByte())})
	}
}

// addDef adds one function or class; it returns -1 for a definition that
// is not a symbol (an @overload stub).
func (x *extraction) addDef(d *defNode, parent int) int {
	n := &d.node
	name := x.text(n.ChildByFieldName("name"))
	outer := n
	var decorators []string
	var supplied suppliedNames
	if p := n.Parent(); p != nil && p.Kind() == "decorated_definition" {
		outer = p
		decorators = x.decorators(p)
		supplied = x.supplied(p)
	}
	if !d.class && hasDecorator(decorators, "overload") {
		return -1
	}
	sp := lang.SpanOf(outer)
	s := lang.Symbol{Name: name, Parent: parent, Span: sp, Exported: exportedName(name), Decorators: decorators}
	if !x.symbolsOnly {
		s.Signature = x.header(n, &d.body)
		s.Doc = x.docstring(&d.body)
		s.Content = lang.Content(x.src, sp)
	}
	info := symInfo{scope: true, bodyStart: uint32(d.body.StartByte()), bodyEnd: uint32(d.body.EndByte())}
	qualPrefix := ""
	inClass := false
	if parent >= 0 {
		qualPrefix = x.facts.Symbols[parent].Qual + "."
		inClass = x.facts.Symbols[parent].Kind.IsType()
	}
	s.Qual = qualPrefix + name
	if d.class {
		s.Kind = graph.KindClass
		if !x.symbolsOnly {
			s.Bases = x.bases(n.ChildByFieldName("superclasses"))
		}
		info.typePath = name
		info.supplied = supplied
		if inClass {
			info.typePath = x.info[parent].typePath + "." + name
		}
		return x.add(s, info)
	}
	s.Kind = graph.KindFunction
	if inClass {
		s.Kind = graph.KindMethod
		if name == "__init__" {
			s.Kind = graph.KindConstructor
		}
		// A property's setter and deleter share the getter's name; they
		// are told apart by their qualified names.
		for _, dec := range decorators {
			if suffix, ok := strings.CutPrefix(dec, name+"."); ok && (suffix == "setter" || suffix == "deleter" || suffix == "getter") {
				s.Qual += "." + suffix
			}
		}
	}
	s.Static = hasDecorator(decorators, "staticmethod")
	s.Abstract = hasDecorator(decorators, "abstractmethod") || hasDecorator(decorators, "abstractproperty") ||
		hasDecorator(decorators, "abstractclassmethod") || hasDecorator(decorators, "abstractstaticmethod")
	params := x.params(n.ChildByFieldName("parameters"))
	if inClass && !s.Static && len(params) > 0 && !params[0].Variadic {
		info.receiver = params[0].Name
		info.classReceiver = hasDecorator(decorators, "classmethod") ||
			name == "__new__" || name == "__init_subclass__" || name == "__class_getitem__"
		params = params[1:]
	}
	// Parametrize on the function or on a class around it supplies the
	// values of the parameters it names.
	for a := parent; a >= 0 && x.facts.Symbols[a].Kind.IsType(); a = x.facts.Symbols[a].Parent {
		supplied = supplied.with(x.info[a].supplied)
	}
	for i := range params {
		params[i].Supplied = supplied.has(params[i].Name)
	}
	s.Params = params
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		s.Returns = []string{x.annotation(rt)}
	}
	return x.add(s, info)
}

// decorators returns the names of the decorators of a decorated
// definition, without arguments: "property", "app.route".
func (x *extraction) decorators(decorated *ts.Node) []string {
	var out []string
	for i := uint(0); i < decorated.NamedChildCount(); i++ {
		d := decorated.NamedChild(i)
		if d.Kind() != "decorator" || d.NamedChildCount() == 0 {
			continue
		}
		e := d.NamedChild(0)
		if e.Kind() == "call" {
			e = e.ChildByFieldName("function")
		}
		if e != nil {
			out = append(out, lang.OneLine(x.text(e)))
		}
	}
	return out
}

// hasDecorator reports whether a decorator is name or ends with "."+name
// (`abc.abstractmethod`, `typing.overload`).
func hasDecorator(decorators []string, name string) bool {
	for _, d := range decorators {
		if d == name || strings.HasSuffix(d, "."+name) {
			return true
		}
	}
	return false
}

// exportedName: public names do not start with an underscore; dunder names
// (`__init__`, `__call__`) are public.
func exportedName(name string) bool {
	return !strings.HasPrefix(name, "_") || (len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"))
}

// header is the definition's first line up to its body, on one line:
// "def run(self, x: int) -> str:", "class A(Base):".
func (x *extraction) header(n, body *ts.Node) string {
	end := n.EndByte()
	if body != nil && body.StartByte() > n.StartByte() {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[n.StartByte():end])))
	if len(s) > 300 {
		s = lang.ValidUTF8(s[:300]) + "…"
	}
	return s
}

// docstring returns the first paragraph of the string literal that opens a
// body, if any.
func (x *extraction) docstring(body *ts.Node) string {
	if body == nil || body.NamedChildCount() == 0 {
		return ""
	}
	first := body.NamedChild(0)
	if first.Kind() != "expression_statement" || first.NamedChildCount() != 1 {
		return ""
	}
	str := first.NamedChild(0)
	if str.Kind() != "string" {
		return ""
	}
	return lang.FirstParagraph(strings.Split(stringValue(x.text(str)), "\n"))
}

// stringValue strips the prefix and quotes of a string literal.
func stringValue(lit string) string {
	i := strings.IndexAny(lit, `"'`)
	if i < 0 {
		return lit
	}
	body := lit[i:]
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(body) >= 2*len(q) && strings.HasPrefix(body, q) && strings.HasSuffix(body, q) {
			return body[len(q) : len(body)-len(q)]
		}
	}
	return strings.Trim(body, `"'`)
}

// bases returns the base classes written in a class's argument list;
// keyword arguments (metaclass=...) and unpacked arguments are not bases.
func (x *extraction) bases(args *ts.Node) []lang.Base {
	if args == nil {
		return nil
	}
	var out []lang.Base
	for i := uint(0); i < args.NamedChildCount(); i++ {
		a := args.NamedChild(i)
		switch a.Kind() {
		case "identifier", "attribute", "subscript":
			out = append(out, lang.Base{Type: lang.OneLine(x.text(a)), Kind: lang.BaseExtends})
		}
	}
	return out
}

// params reads a parameter list. The receiver is still included.
func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		p := list.NamedChild(i)
		switch p.Kind() {
		case "identifier":
			out = append(out, lang.Param{Name: x.text(p)})
		case "list_splat_pattern", "dictionary_splat_pattern":
			out = append(out, lang.Param{Name: x.splatName(p), Variadic: true})
		case "typed_parameter":
			prm := lang.Param{Type: lang.OneLine(x.text(p.ChildByFieldName("type")))}
			if p.NamedChildCount() > 0 {
				inner := p.NamedChild(0)
				switch inner.Kind() {
				case "identifier":
					prm.Name = x.text(inner)
				case "list_splat_pattern", "dictionary_splat_pattern":
					prm.Name, prm.Variadic = x.splatName(inner), true
					if inner.Kind() == "list_splat_pattern" {
						prm.Type = "tuple[" + prm.Type + ", ...]"
					} else {
						prm.Type = "dict[str, " + prm.Type + "]"
					}
				}
			}
			out = append(out, prm)
		case "default_parameter", "typed_default_parameter":
			out = append(out, lang.Param{
				Name:     x.text(p.ChildByFieldName("name")),
				Type:     lang.OneLine(x.text(p.ChildByFieldName("type"))),
				Optional: true,
				Default:  x.nameExpr(p.ChildByFieldName("value")),
			})
		}
	}
	return out
}

func (x *extraction) splatName(p *ts.Node) string {
	if p.NamedChildCount() > 0 {
		return x.text(p.NamedChild(0))
	}
	return ""
}

// nameExpr is a name or a dotted name (a default value that may be a
// function or class: `handler=default_handler`, `cls=json.JSONEncoder`),
// nil for anything else.
func (x *extraction) nameExpr(n *ts.Node) *lang.Expr {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "attribute":
		if obj := x.nameExpr(n.ChildByFieldName("object")); obj != nil {
			return &lang.Expr{Kind: lang.ExprMember, Name: x.text(n.ChildByFieldName("attribute")), X: obj}
		}
	}
	return nil
}
