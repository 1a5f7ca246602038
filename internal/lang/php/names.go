package php

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// nameTable is what PHP's compile-time name resolution needs at a point of
// a file: the current namespace and the aliases its `use` statements made
// for classes, functions and constants. Names are kept dotted
// (`App\Models\User` is "App.Models.User").
type nameTable struct {
	namespace string
	classes   map[string]string
	functions map[string]string
	consts    map[string]string
}

func newNameTable() *nameTable {
	return &nameTable{classes: map[string]string{}, functions: map[string]string{}, consts: map[string]string{}}
}

// enter starts a namespace: the aliases of the previous one end.
func (t *nameTable) enter(ns string) {
	*t = *newNameTable()
	t.namespace = ns
}

// dotted turns a PHP name as written into dotted form and reports whether
// it was fully qualified (a leading backslash).
func dotted(written string) (string, bool) {
	w := strings.Join(strings.Fields(written), "")
	abs := strings.HasPrefix(w, `\`)
	w = strings.TrimPrefix(w, `\`)
	w = strings.TrimPrefix(w, `namespace\`)
	return strings.ReplaceAll(w, `\`, "."), abs
}

// qualify joins a namespace and a dotted name.
func qualify(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "." + name
}

// class resolves a class name as written to its fully qualified dotted
// name: a leading backslash makes it absolute, an alias of `use` replaces
// the first part, else the current namespace prefixes it. "" for the
// names that are no class (self, static and parent are resolved by the
// caller; builtin types have no class).
func (t *nameTable) class(written string) string {
	d, abs := dotted(written)
	if d == "" {
		return ""
	}
	if abs {
		return d
	}
	first, rest, _ := strings.Cut(d, ".")
	if !strings.Contains(d, ".") && builtinTypes[strings.ToLower(d)] {
		return ""
	}
	if full, ok := t.classes[strings.ToLower(first)]; ok {
		if rest == "" {
			return full
		}
		return full + "." + rest
	}
	return qualify(t.namespace, d)
}

// function resolves a called function name. A qualified name resolves
// like a class name; an unqualified one imported by `use function` is the
// import; any other unqualified name is left as written (fallback to the
// global namespace happens at resolution) and unqualified is true.
func (t *nameTable) function(written string) (name string, unqualified bool) {
	d, abs := dotted(written)
	if abs {
		return d, false
	}
	if !strings.Contains(d, ".") {
		if full, ok := t.functions[strings.ToLower(d)]; ok {
			return full, false
		}
		return d, true
	}
	first, rest, _ := strings.Cut(d, ".")
	if full, ok := t.classes[strings.ToLower(first)]; ok {
		return full + "." + rest, false
	}
	return qualify(t.namespace, d), false
}

// pathExpr turns a dotted name into the expression that walks it: the
// first part as a name, the rest as members.
func pathExpr(name string) *lang.Expr {
	parts := strings.Split(name, ".")
	e := &lang.Expr{Kind: lang.ExprIdent, Name: parts[0]}
	for _, p := range parts[1:] {
		e = &lang.Expr{Kind: lang.ExprMember, Name: p, X: e}
	}
	return e
}

// builtinTypes are the type names PHP reserves: no class has them.
var builtinTypes = map[string]bool{}

func init() {
	for _, n := range strings.Fields("int float bool string array object mixed void null never iterable callable false true self static parent resource integer boolean double") {
		builtinTypes[n] = true
	}
}
