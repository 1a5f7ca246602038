package c

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Code for other platforms. A definition inside `#ifdef _WIN32` (or
// `#if defined(_MSC_VER)`, the #else of `#ifndef __APPLE__`, ...) is
// compiled only on that platform; the index resolves calls as a Linux
// build does, the way the Go language lets linux/amd64 win. Such
// definitions are symbols like the others, marked with the decorator
// "platform", and only calls from code of another platform reach them:
// jq's Windows shim of pthread_mutex_lock is not what its Linux code calls.

// foreignMacros name platforms other than Linux.
var foreignMacros = []string{"_WIN32", "_WIN64", "WIN32", "_MSC_VER", "__MINGW32__", "__MINGW64__",
	"__CYGWIN__", "__APPLE__", "__MACH__", "_WINDOWS", "__FreeBSD__", "__OpenBSD__", "__NetBSD__", "__sun", "__HAIKU__"}

const platformDecorator = "platform"

// mentionsForeign reports whether a condition tests a foreign platform
// without negating it.
func mentionsForeign(cond string) bool {
	if strings.Contains(cond, "!") {
		return false
	}
	for _, m := range foreignMacros {
		if i := strings.Index(cond, m); i >= 0 {
			end := i + len(m)
			if end == len(cond) || !isIdentByte(cond[end]) {
				if i == 0 || !isIdentByte(cond[i-1]) {
					return true
				}
			}
		}
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// forPlatform reports whether n lies in a branch of a preprocessor
// conditional compiled only for another platform.
func (x *extraction) forPlatform(n *ts.Node) bool {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		switch p.Kind() {
		case "preproc_ifdef":
			name := p.ChildByFieldName("name")
			if name == nil || !mentionsForeign(x.text(name)) {
				continue
			}
			negated := strings.HasPrefix(x.text(p), "#ifndef")
			inElse := child.Kind() == "preproc_else" || child.Kind() == "preproc_elifdef" || child.Kind() == "preproc_elif"
			if negated == inElse {
				return true
			}
		case "preproc_if", "preproc_elif":
			cond := p.ChildByFieldName("condition")
			inElse := child.Kind() == "preproc_else" || child.Kind() == "preproc_elif" || child.Kind() == "preproc_elifdef"
			if cond != nil && !inElse && child != cond && mentionsForeign(x.text(cond)) {
				return true
			}
		}
	}
	return false
}
