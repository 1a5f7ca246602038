package c

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// What the C++ extractor reads the way C does (the grammars share these
// node shapes).

// DeclarationHeader is a declaration's text up to its body (all of it
// when body is nil), on one line, without a trailing semicolon, cut at
// 300 bytes: its signature.
func DeclarationHeader(src []byte, n, body *ts.Node) string {
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(src[n.StartByte():end])))
	s = strings.TrimSuffix(strings.TrimSpace(s), ";")
	s = lang.Cap(s, 300)
	return strings.TrimSpace(s)
}

// IncludeOf reads a preproc_include node: `#include "x.h"` and
// `#include <x.h>` give an import of the written path; a computed
// include (a macro) gives none.
func IncludeOf(n *ts.Node, src []byte) (lang.Import, bool) {
	p := n.ChildByFieldName("path")
	if p == nil {
		return lang.Import{}, false
	}
	path := strings.TrimSpace(lang.Text(p, src))
	switch p.Kind() {
	case "string_literal":
		path = strings.Trim(path, `"`)
	case "system_lib_string":
	default:
		return lang.Import{}, false
	}
	if path == "" || path == "<>" {
		return lang.Import{}, false
	}
	return lang.Import{Kind: lang.ImportSideEffect, Path: path, Line: lang.Line(n), Scope: -1}, true
}

// IsMacroName reports whether a name is written the way macros are:
// upper-case letters, digits and underscores, with two letters at least.
func IsMacroName(name string) bool {
	letters := 0
	for i := 0; i < len(name); i++ {
		switch b := name[i]; {
		case b >= 'A' && b <= 'Z':
			letters++
		case b >= '0' && b <= '9', b == '_':
		default:
			return false
		}
	}
	return letters >= 2
}

// IsWrite reports whether the identifier n, a child of parent, is written
// there: the left side of an assignment, or the operand of ++ or --.
func IsWrite(n, parent *ts.Node) bool {
	switch parent.Kind() {
	case "assignment_expression":
		l := parent.ChildByFieldName("left")
		return l != nil && l.Id() == n.Id()
	case "update_expression":
		return true
	}
	return false
}

// MacroSymbol is the symbol of a function-like macro definition n: hidden
// ("#define.NAME", decorated "define"), so that calls of its name are
// known to be macro invocations. It reports false for a macro without a
// name.
func MacroSymbol(n *ts.Node, src []byte) (lang.Symbol, bool) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return lang.Symbol{}, false
	}
	name := lang.Text(nameNode, src)
	return lang.Symbol{
		Kind: graph.KindFunction, Name: name, Qual: "#define." + name, Parent: -1,
		Span: lang.SpanOf(n), Hidden: true, Abstract: true, Decorators: []string{"define"},
	}, true
}
