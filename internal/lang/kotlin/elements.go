package kotlin

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// The lambda of `xs.map { it.f() }` and of the other element-wise
// functions of the standard collections receives one element of xs. The
// index keeps no element types (a written `List<KClass<*>>` is a List),
// so the extractor types `it` where the collection is a parameter of an
// enclosing function declared with its element type: `vararg ts: T`, or
// `ts: List<T>` (Collection, Iterable, Set, Array and their mutable
// forms), or else a property of the enclosing class so declared.

// elementLambdas are the functions whose lambda's one parameter is an
// element of the receiver.
var elementLambdas = map[string]bool{
	"map": true, "mapNotNull": true, "flatMap": true, "forEach": true, "onEach": true, "filter": true,
	"filterNot": true, "any": true, "all": true, "none": true, "first": true, "firstOrNull": true,
	"single": true, "count": true, "sortedBy": true, "associateBy": true, "associateWith": true,
	"groupBy": true, "mapTo": true, "joinToString": true, "find": true,
}

// elementContainers are the generic types whose one type argument is the
// element type.
var elementContainers = map[string]bool{
	"List": true, "MutableList": true, "Collection": true, "MutableCollection": true, "Iterable": true,
	"Set": true, "MutableSet": true, "Array": true, "Sequence": true,
}

// addElementLambda records the `it` (or the one named parameter) of an
// element-wise lambda on a parameter of known element type.
func (x *extraction) addElementLambda(nav, al *ts.Node) {
	fn := x.text(nav.NamedChild(1))
	recv := nav.NamedChild(0)
	if !elementLambdas[fn] || recv.Kind() != "identifier" {
		return
	}
	lambda := lang.FirstNamed(al, "lambda_literal")
	if lambda == nil {
		return
	}
	elem := x.paramElementType(uint32(nav.StartByte()), x.text(recv))
	if elem == "" {
		return
	}
	name, ok := x.lambdaParam(lambda)
	if !ok {
		return
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(lambda), Name: name, Type: elem,
		Byte: uint32(lambda.StartByte()), End: uint32(lambda.EndByte())})
}

// lambdaParam is the name of a lambda's one parameter: `it`, or the one
// it declares without a type; false for anything else.
func (x *extraction) lambdaParam(lambda *ts.Node) (string, bool) {
	ps := lang.FirstNamed(lambda, "lambda_parameters")
	if ps == nil {
		return "it", true
	}
	if ps.NamedChildCount() != 1 || ps.NamedChild(0).Kind() != "variable_declaration" {
		return "", false
	}
	id := lang.FirstNamed(ps.NamedChild(0), "identifier")
	if id == nil || typeChild(ps.NamedChild(0)) != nil {
		return "", false
	}
	return x.text(id), true
}

// paramElementType is the element type of the parameter name of the
// callables around pos, "" when it is none of theirs or not a collection
// of a named type.
func (x *extraction) paramElementType(pos uint32, name string) string {
	syms := x.facts.Symbols
	for i := x.scopes.CallScope(pos); i >= 0; i = syms[i].Parent {
		if !syms[i].Kind.IsCallable() {
			continue
		}
		for _, prm := range syms[i].Params {
			if prm.Name != name {
				continue
			}
			if prm.Variadic {
				return namedType(prm.Type)
			}
			return elementOf(prm.Type)
		}
	}
	return x.propertyElementType(pos, name)
}

// propertyElementType is the element type of the property name of the
// class around pos, declared before pos (primary-constructor properties
// are) with a written collection type; "" when a local of that name is in
// scope at pos, which hides the property.
func (x *extraction) propertyElementType(pos uint32, name string) string {
	for _, b := range x.facts.Bindings {
		if b.Name == name && !b.Field && b.Byte <= pos && pos < b.End {
			return ""
		}
	}
	syms := x.facts.Symbols
	owner := -1
	for i := x.scopes.CallScope(pos); i >= 0; i = syms[i].Parent {
		if syms[i].Kind.IsType() {
			owner = i
			break
		}
	}
	if owner < 0 {
		return ""
	}
	for i := owner + 1; i < len(syms); i++ {
		if s := &syms[i]; s.Parent == owner && s.Kind == graph.KindProperty && s.Name == name {
			return elementOf(s.Type)
		}
	}
	return ""
}

// elementOf is E of a written `C<E>` with C an element container.
func elementOf(written string) string {
	open := strings.IndexByte(written, '<')
	if open < 0 || !strings.HasSuffix(written, ">") || !elementContainers[lastPart(written[:open])] {
		return ""
	}
	arg := strings.TrimSpace(written[open+1 : len(written)-1])
	return namedType(withoutVariance(arg))
}

// withoutVariance drops the variance of a type argument; written types
// are kept without spaces, so `out T` is "outT".
func withoutVariance(arg string) string {
	for _, v := range []string{"out", "in"} {
		if rest := strings.TrimSpace(strings.TrimPrefix(arg, v)); rest != arg && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return rest
		}
	}
	return arg
}

// namedType is a written type when it names a type (not a type
// parameter, a star or a function type).
func namedType(t string) string {
	t = strings.TrimSpace(t)
	base := t
	if i := strings.IndexByte(base, '<'); i >= 0 {
		base = base[:i]
	}
	if len(lastPart(base)) < 2 || strings.ContainsAny(base, "(*") {
		return ""
	}
	return t
}
