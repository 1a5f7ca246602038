package java

import (
	"regexp"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// modifiers are the keywords and annotations written before a declaration.
type modifiers struct {
	public, protected, private, static, final, abstract, native, def bool
	// text is the keywords, space-separated, without annotations.
	text string
	// annotations are the annotation names without arguments.
	annotations []string
	node        *ts.Node
}

// modifiers reads the modifiers node of a declaration, if any.
func (x *extraction) modifiers(n *ts.Node) modifiers {
	var m modifiers
	for i := uint(0); i < n.ChildCount(); i++ {
		ch := n.Child(i)
		if ch.Kind() == "modifiers" {
			m.node = ch
			break
		}
	}
	if m.node == nil {
		return m
	}
	var words []string
	for i := uint(0); i < m.node.ChildCount(); i++ {
		ch := m.node.Child(i)
		switch k := ch.Kind(); k {
		case "marker_annotation", "annotation":
			m.annotations = append(m.annotations, lang.OneLine(x.text(ch.ChildByFieldName("name"))))
		case "line_comment", "block_comment":
		default:
			words = append(words, k)
			switch k {
			case "public":
				m.public = true
			case "protected":
				m.protected = true
			case "private":
				m.private = true
			case "static":
				m.static = true
			case "final":
				m.final = true
			case "abstract":
				m.abstract = true
			case "native":
				m.native = true
			case "default":
				m.def = true
			}
		}
	}
	m.text = strings.Join(words, " ")
	return m
}

// header is a declaration's text up to its body, on one line, with the
// modifier keywords but without annotations.
func (x *extraction) header(n, body *ts.Node, mods modifiers) string {
	start, end := n.StartByte(), n.EndByte()
	if mods.node != nil {
		start = mods.node.EndByte()
	}
	if body != nil {
		end = body.StartByte()
	}
	if end < start {
		end = start
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[start:end])))
	s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	if mods.text != "" {
		s = mods.text + " " + s
	}
	return capLine(s)
}

// capLine bounds a one-line signature.
func capLine(s string) string { return lang.Cap(s, 300) }

var annotationInType = regexp.MustCompile(`@[\w.$]+(\s*\([^()]*\))?\s*`)

// typeText is a written type on one line without type annotations
// (`@Nullable String` is "String").
func (x *extraction) typeText(n *ts.Node) string {
	if n == nil {
		return ""
	}
	t := x.text(n)
	if strings.IndexByte(t, '@') >= 0 {
		t = annotationInType.ReplaceAllString(t, "")
	}
	return lang.OneLine(t)
}
