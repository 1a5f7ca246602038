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
	docParam  = regexp.MustCompile(`@param\s+([^\s$]+)\s+(?:\.\.\.)?(\$\w+)`)
	docReturn = regexp.MustCompile(`@return\s+(\S+)`)
	docVar    = regexp.MustCompile(`@var\s+(\S+)`)
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
// class: `Foo`, `?Foo`, `Foo|null`, `\App\Foo`; "" for builtin types,
// arrays (`Foo[]`, `array<Foo>`), generics and unions of several classes.
func (x *extraction) docType(written string) string {
	found := ""
	for _, part := range strings.Split(strings.TrimPrefix(written, "?"), "|") {
		if strings.EqualFold(part, "null") {
			continue
		}
		if found != "" || strings.ContainsAny(part, "[]<>{}()&:'\"") {
			return ""
		}
		found = part
	}
	if found == "" {
		return ""
	}
	return x.className(found)
}
