package php

import (
	"regexp"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// docTypes are the types a `/** */` comment gives where the code declares
// none: `@param Type $name`, `@return Type`, `@var Type`. PHP code written
// before type declarations existed types its values this way only.
type docTypes struct {
	params  map[string]string
	returns string
	varType string
}

var (
	// A type is a run of non-space characters, where <...> may hold spaces
	// (`array<int, Foo>`).
	docParam  = regexp.MustCompile(`@param\s+((?:[^\s$<]|<[^>]*>)+)\s+&?(?:\.\.\.)?(\$\w+)`)
	docReturn = regexp.MustCompile(`@return\s+((?:[^\s<]|<[^>]*>)+)`)
	docVar    = regexp.MustCompile(`@var\s+((?:[^\s$<]|<[^>]*>)+)`)
)

// docTypesOf reads the doc comment above a declaration.
func (x *extraction) docTypesOf(n *ts.Node) docTypes {
	texts := lang.CommentsBefore(n, x.src, func(c *ts.Node) bool {
		return c.Kind() == "comment" && strings.HasPrefix(lang.Text(c, x.src), "/**")
	})
	var d docTypes
	if len(texts) == 0 {
		return d
	}
	text := texts[len(texts)-1]
	for _, m := range docParam.FindAllStringSubmatch(text, -1) {
		if t := x.docType(m[1]); t != "" {
			if d.params == nil {
				d.params = map[string]string{}
			}
			d.params[m[2]] = t
		}
	}
	if m := docReturn.FindStringSubmatch(text); m != nil {
		d.returns = x.docType(m[1])
	}
	if m := docVar.FindStringSubmatch(text); m != nil {
		d.varType = x.docType(m[1])
	}
	return d
}

// docType resolves a type written in a doc comment when it names one
// class: `Foo`, `?Foo`, `Foo|null`, `\App\Foo`, or a list of one class
// (`Foo[]`, `array<Foo>`, `list<Foo>`, `array<int, Foo>`, `iterable<Foo>`),
// written "Foo[]"; "" for builtin types, other generics and unions of
// several classes.
func (x *extraction) docType(written string) string {
	found, list := "", false
	for _, part := range splitUnion(strings.TrimPrefix(written, "?")) {
		if strings.EqualFold(part, "null") {
			continue
		}
		if found != "" {
			return ""
		}
		found, list = part, false
		if elem, ok := listElem(part); ok {
			found, list = elem, true
		}
		if strings.ContainsAny(found, "[]<>{}()&:'\",") {
			return ""
		}
	}
	if found == "" {
		return ""
	}
	c := x.className(found)
	if c != "" && list {
		c += "[]"
	}
	return c
}

// splitUnion splits a type at the | outside <>.
func splitUnion(t string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range t {
		switch r {
		case '<':
			depth++
		case '>':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, t[start:i])
				start = i + 1
			}
		}
	}
	return append(out, t[start:])
}

// listElem returns the element type of a list written `Foo[]` or
// `array<Foo>` (the last type argument: `array<int, Foo>`).
func listElem(t string) (string, bool) {
	if e, ok := strings.CutSuffix(t, "[]"); ok {
		return e, true
	}
	open := strings.IndexByte(t, '<')
	if open < 0 || !strings.HasSuffix(t, ">") {
		return "", false
	}
	switch strings.ToLower(t[:open]) {
	case "array", "list", "iterable", "non-empty-array", "non-empty-list":
	default:
		return "", false
	}
	args := strings.Split(t[open+1:len(t)-1], ",")
	return strings.TrimSpace(args[len(args)-1]), true
}
