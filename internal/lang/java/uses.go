package java

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// readUses records calls, local bindings and references. Each belongs to
// the innermost enclosing type or callable (container): lambdas are not
// nodes, so what they do belongs to the method around them.
func (x *extraction) readUses(q *lang.Query, matches []lang.Match) {
	var (
		cCall        = q.Capture("call")
		cNew         = q.Capture("new")
		cCtorCall    = q.Capture("ctorcall")
		cEnumConst   = q.Capture("enumconst")
		cLocal       = q.Capture("local")
		cForeach     = q.Capture("foreach")
		cCatch       = q.Capture("catch")
		cResource    = q.Capture("resource")
		cLambda      = q.Capture("lambda")
		cInstanceof  = q.Capture("instanceof")
		cTypePattern = q.Capture("typepattern")
		cIdent       = q.Capture("ident")
		cFieldAccess = q.Capture("fieldaccess")
	)
	refs := refSet{}
	handle := func(m *lang.Match) {
		switch {
		case m.Node(cCall) != nil:
			x.addInvocation(m.Node(cCall))
		case m.Node(cNew) != nil:
			n := m.Node(cNew)
			callee := &lang.Expr{Kind: lang.ExprNew, Name: x.typeText(n.ChildByFieldName("type"))}
			x.addCall(n, callee, n.ChildByFieldName("arguments"), lang.Line(n))
		case m.Node(cCtorCall) != nil:
			x.addConstructorCall(m.Node(cCtorCall))
		case m.Node(cEnumConst) != nil:
			x.addEnumConstantCall(m.Node(cEnumConst))
		case m.Node(cLocal) != nil:
			x.bindLocal(m.Node(cLocal))
		case m.Node(cForeach) != nil:
			x.bindForeach(m.Node(cForeach))
		case m.Node(cCatch) != nil:
			x.bindCatch(m.Node(cCatch))
		case m.Node(cResource) != nil:
			x.bindResource(m.Node(cResource))
		case m.Node(cLambda) != nil:
			x.bindLambda(m.Node(cLambda))
		case m.Node(cInstanceof) != nil:
			x.bindInstanceof(m.Node(cInstanceof))
		case m.Node(cTypePattern) != nil:
			x.bindTypePattern(m.Node(cTypePattern))
		case m.Node(cIdent) != nil:
			x.identRef(m.Node(cIdent), refs)
		case m.Node(cFieldAccess) != nil:
			x.fieldRef(m.Node(cFieldAccess), refs)
		}
	}
	for i := range matches {
		handle(&matches[i])
	}
}

// addInvocation records a method invocation: `m()`, `x.m()`, `this.m()`,
// `super.m()`, `Type.m()`, `a.b().c()`.
func (x *extraction) addInvocation(n *ts.Node) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	callee := &lang.Expr{Kind: lang.ExprIdent, Name: x.text(name)}
	if obj := n.ChildByFieldName("object"); obj != nil {
		callee = &lang.Expr{Kind: lang.ExprMember, Name: callee.Name, X: x.invocationObject(n, obj)}
	}
	x.addCall(n, callee, n.ChildByFieldName("arguments"), lang.Line(name))
}

// invocationObject is the receiver of an invocation; `I.super.m()` (an
// interface's default method) reads as a call on an I.
func (x *extraction) invocationObject(n, obj *ts.Node) *lang.Expr {
	for i := uint(0); i < n.ChildCount(); i++ {
		if ch := n.Child(i); ch.Kind() == "super" && ch.StartByte() > obj.StartByte() {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: x.typeText(obj)}
		}
	}
	e := x.expr(obj, 0)
	if e.Kind == lang.ExprLiteral && (e.Name == "String" || e.Name == "Class") {
		// "text".length(), Foo.class.getName(): a library type.
		return &lang.Expr{Kind: lang.ExprTypeAssert, Name: e.Name}
	}
	return e
}

// addConstructorCall records `this(...)` and `super(...)` in a constructor.
func (x *extraction) addConstructorCall(n *ts.Node) {
	kind := lang.ExprSuper
	if c := n.ChildByFieldName("constructor"); c != nil && c.Kind() == "this" {
		kind = lang.ExprSelf
	}
	x.addCall(n, &lang.Expr{Kind: kind}, n.ChildByFieldName("arguments"), lang.Line(n))
}

// addEnumConstantCall records the constructor call an enum constant makes,
// when the enum declares constructors or the constant passes arguments.
func (x *extraction) addEnumConstantCall(n *ts.Node) {
	owner := x.memberOwner(n)
	if owner < 0 || x.facts.Symbols[owner].Kind != graph.KindEnum {
		return
	}
	args := n.ChildByFieldName("arguments")
	if args == nil && !x.hasCtor[owner] {
		return
	}
	callee := &lang.Expr{Kind: lang.ExprNew, Name: x.facts.Symbols[owner].Name}
	x.addCall(n, callee, args, lang.Line(n))
}

func (x *extraction) addCall(n *ts.Node, callee *lang.Expr, args *ts.Node, line int) {
	pos := uint32(n.StartByte())
	argExprs := x.args(args)
	x.facts.Calls = append(x.facts.Calls, lang.Call{
		Scope: x.container(pos), Callee: callee, Args: len(argExprs),
		Line: line, Byte: pos, ArgExprs: argExprs,
	})
}

// args converts an argument list; nil when there are no arguments.
func (x *extraction) args(list *ts.Node) []*lang.Expr {
	if list == nil {
		return nil
	}
	var out []*lang.Expr
	for i := uint(0); i < list.NamedChildCount(); i++ {
		a := list.NamedChild(i)
		if k := a.Kind(); k == "line_comment" || k == "block_comment" {
			continue
		}
		out = append(out, x.expr(a, 0))
	}
	return out
}
