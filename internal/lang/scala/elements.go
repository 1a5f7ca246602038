package scala

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// elementMethods are the methods of Scala's collections (and Option)
// whose function argument takes one element: in `xs map { o => o.f }`
// and `xs.filter(_.g)` the parameter is an element of xs. On a receiver
// that is no collection of a known type the binding says nothing.
var elementMethods = map[string]bool{
	"map": true, "flatMap": true, "foreach": true, "filter": true, "filterNot": true, "withFilter": true,
	"exists": true, "forall": true, "find": true, "partition": true, "sortBy": true, "groupBy": true,
	"count": true, "takeWhile": true, "dropWhile": true, "span": true, "maxBy": true, "minBy": true,
	"indexWhere": true, "distinctBy": true,
}

// sameElements are the collection methods whose result holds elements of
// the receiver. Only the elements are taken from it: on a receiver that
// is no collection (a class of the repository with a method so named)
// the element is unknown.
var sameElements = map[string]bool{
	"filter": true, "filterNot": true, "withFilter": true, "sortBy": true, "sortWith": true, "sorted": true,
	"reverse": true, "distinct": true, "toList": true, "toSeq": true, "toVector": true, "toIndexedSeq": true,
	"toSet": true, "toArray": true, "take": true, "drop": true, "takeWhile": true, "dropWhile": true,
	"tail": true, "init": true,
}

// elementArgument binds the parameter of the function passed as the one
// argument of recv.method to an element of recv: a lambda with one
// untyped parameter (read when lambda walks it) or a function written
// with one placeholder (`_.usage`, the name "_").
func (x *extraction) elementArgument(recv *lang.Expr, method string, arg *ts.Node) {
	if x.symbolsOnly || recv == nil || arg == nil || !elementMethods[method] {
		return
	}
	for recv.Kind == lang.ExprCall && recv.X != nil && recv.X.Kind == lang.ExprMember && sameElements[recv.X.Name] ||
		recv.Kind == lang.ExprMember && sameElements[recv.Name] {
		// `xs.toList map {...}`, `xs.filter(p).foreach {...}`: elements
		// of xs.
		if recv.Kind == lang.ExprCall {
			recv = recv.X
		}
		recv = recv.X
	}
	n := arg
	for (n.Kind() == "arguments" || n.Kind() == "block" || n.Kind() == "parenthesized_expression") && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if n.Kind() == "lambda_expression" {
		if ps := n.ChildByFieldName("parameters"); ps != nil && ps.Kind() == "identifier" {
			x.typeLambda(n, recv, true)
		}
		return
	}
	if placeholders(n) == 1 {
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(n.StartByte()), Name: placeholder,
			Value: recv, Elem: true, Byte: uint32(n.StartByte()), End: uint32(n.EndByte())})
	}
}

// placeholder is the name a placeholder parameter `_` is read as.
const placeholder = "_"

// placeholders counts the `_` of an expression that stand for a
// parameter of the function it writes (those of nested lambdas and
// types apart); -1 when one is elsewhere than before a `.`.
func placeholders(n *ts.Node) int {
	switch n.Kind() {
	case "wildcard":
		if p := n.Parent(); p != nil && p.Kind() == "field_expression" {
			return 1
		}
		return -1
	case "lambda_expression", "case_block", "block":
		return 0
	}
	if isTypeNode(n) {
		return 0
	}
	count := 0
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := placeholders(n.NamedChild(i))
		if c < 0 {
			return -1
		}
		count += c
	}
	return count
}

// typeLambda records what the parameter of lambda n is: an element of
// value (elem), or value itself.
func (x *extraction) typeLambda(n *ts.Node, value *lang.Expr, elem bool) {
	if x.elementLambdas == nil {
		x.elementLambdas = map[uint]lambdaParam{}
	}
	x.elementLambdas[n.StartByte()] = lambdaParam{value: value, elem: elem}
}

// lambdaParam is what a lambda's one parameter is bound to.
type lambdaParam struct {
	value *lang.Expr
	elem  bool
}

// expectedParameter binds the one untyped parameter of a lambda passed as
// the one argument of a def called by name (`Parser { in => ... }` with
// `def Parser[T](f: Input => Result[T])`) to the parameter type of the
// def's function type, which Lookup reads (parameterPrefix).
func (x *extraction) expectedParameter(callee string, arg *ts.Node) {
	if x.symbolsOnly || arg == nil {
		return
	}
	n := arg
	for (n.Kind() == "arguments" || n.Kind() == "block" || n.Kind() == "parenthesized_expression") && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if n.Kind() != "lambda_expression" {
		return
	}
	if ps := n.ChildByFieldName("parameters"); ps != nil && ps.Kind() == "identifier" {
		x.typeLambda(n, &lang.Expr{Kind: lang.ExprIdent, Name: parameterPrefix + callee}, false)
	}
}
