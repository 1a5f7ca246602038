package java

import (
	"embed"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/*.scm
var queries embed.FS

// Language is the registered Java language.
//
// Its type declarations stand alone: a type declaration's symbols, nested
// and anonymous classes numbered inside it included, come from its own
// text; so do the members of a class, interface, enum or annotation type
// body (lang.MemberBodies), but for anonymous classes (numberedName).
var Language = lang.Define(lang.Spec[*lang.SplitQueries]{
	Name:         "java",
	Extensions:   []string{".java"},
	Rules:        rules{},
	Grammar:      func() *ts.Language { return ts.NewLanguage(tsjava.Language()) },
	Compile:      lang.SplitCompiler("java", queries),
	NewExtractor: func(b *lang.ExtractorBase[*lang.SplitQueries]) lang.TreeExtractor { return &extractor{b} },
	StandAlone:   true,
	MemberBodies: []string{"class_body", "interface_body", "enum_body", "annotation_type_body"},
	NumberedName: numberedName,
})

// numberedName: an anonymous class is named by its order in the enclosing
// type (Outer$1), so the members of a type that holds one are read
// together (lang.Numbered).
func numberedName(name string) bool {
	i := strings.LastIndexByte(name, '$')
	if i < 0 || i == len(name)-1 {
		return false
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// extractor reads Java files with the queries (e.Q).
type extractor struct {
	*lang.ExtractorBase[*lang.SplitQueries]
}
