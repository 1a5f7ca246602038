package python

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Annotations written through an alias of a typing module: click imports
// `typing as t` and `collections.abc as cabc` and annotates
// `cabc.Sequence[ParamType]`, `t.Iterator[Command]`. ParseType knows the
// container and wrapper names under their modules' own names only, and
// reads no imports, so extraction writes each annotation with the aliases
// that the file's imports (outside functions and classes) give those
// modules spelled out: `collections.abc.Sequence[ParamType]`.

// typingModules are the modules whose aliases annotations are read
// through (those of typingPrefixes).
var typingModules = map[string]bool{"typing": true, "typing_extensions": true, "collections.abc": true, "collections": true}

// readTypingAliases records the aliases `import M as X` gives the typing
// modules, from imports outside functions and classes.
func (x *extraction) readTypingAliases(imports []ts.Node) {
	for i := range imports {
		n := &imports[i]
		if n.Kind() != "import_statement" || insideDefinition(n) {
			continue
		}
		c := n.Walk()
		names := n.ChildrenByFieldName("name", c)
		c.Close()
		for j := range names {
			mod, alias := x.importedName(&names[j])
			if alias != "" && alias != mod && typingModules[mod] {
				if x.typingAliases == nil {
					x.typingAliases = map[string]string{}
				}
				x.typingAliases[alias] = mod
			}
		}
	}
}

// insideDefinition reports whether n lies in a function or class.
func insideDefinition(n *ts.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "class_definition":
			return true
		}
	}
	return false
}

// annotation is the text of a type annotation on one line, with the
// aliases of typing modules spelled out; "" for nil.
func (x *extraction) annotation(n *ts.Node) string {
	return x.spelledOut(lang.OneLine(x.text(n)))
}

// spelledOut is an annotation with the aliases of typing modules spelled
// out. Parameters keep their types as written (a symbol's identity
// includes them, and the history reads symbols without imports): their
// bindings, which type their uses, get the spelled-out form.
func (x *extraction) spelledOut(text string) string {
	if len(x.typingAliases) == 0 || text == "" {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if !isIdentByte(text[i]) || (i > 0 && (isIdentByte(text[i-1]) || text[i-1] == '.')) {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		word := text[i:j]
		if mod, ok := x.typingAliases[word]; ok && j < len(text) && text[j] == '.' {
			word = mod
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
