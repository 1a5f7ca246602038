package langtest

import (
	"fmt"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
	_ "gitnexus.dev/gitnexus/internal/lang/c"
	_ "gitnexus.dev/gitnexus/internal/lang/cpp"
	_ "gitnexus.dev/gitnexus/internal/lang/csharp"
	_ "gitnexus.dev/gitnexus/internal/lang/golang"
	_ "gitnexus.dev/gitnexus/internal/lang/java"
	_ "gitnexus.dev/gitnexus/internal/lang/kotlin"
	_ "gitnexus.dev/gitnexus/internal/lang/php"
	_ "gitnexus.dev/gitnexus/internal/lang/python"
	_ "gitnexus.dev/gitnexus/internal/lang/ruby"
	_ "gitnexus.dev/gitnexus/internal/lang/rust"
	_ "gitnexus.dev/gitnexus/internal/lang/scala"
	_ "gitnexus.dev/gitnexus/internal/lang/typescript"
)

// TestRegistration pins what each registered language says of itself: its
// extensions, its rules, which optional interfaces it and its extractor
// implement, and their answers. The history and the pipeline branch on
// those interfaces, so a change in how languages are declared must leave
// this table as it is.
func TestRegistration(t *testing.T) {
	var b strings.Builder
	for _, l := range lang.All() {
		describeLanguage(&b, l)
	}
	if got := b.String(); got != wantRegistration {
		t.Errorf("registration changed:\n%s\nwant:\n%s", got, wantRegistration)
	}
}

func describeLanguage(b *strings.Builder, l lang.Language) {
	fmt.Fprintf(b, "%s %v rules=%T\n", l.Name(), l.Extensions(), l.Rules())
	if _, ok := l.(lang.Preparer); ok {
		fmt.Fprintf(b, "  Preparer\n")
	}
	if sa, ok := l.(lang.StandAlone); ok {
		fmt.Fprintf(b, "  StandAlone %v\n", sa.StandAloneDeclarations())
	}
	if _, ok := l.(lang.StandAloneTree); ok {
		fmt.Fprintf(b, "  StandAloneTree\n")
	}
	if mb, ok := l.(lang.MemberBodies); ok {
		fmt.Fprintf(b, "  MemberBodies %v\n", mb.MemberBodies())
	}
	if _, ok := l.(lang.MemberBodyChecker); ok {
		fmt.Fprintf(b, "  MemberBodyChecker\n")
	}
	if n, ok := l.(lang.Numbered); ok {
		fmt.Fprintf(b, "  Numbered")
		for _, name := range []string{"Outer$1", "Outer$12", "Outer$1Local", "Outer$", "Outer", "$3"} {
			fmt.Fprintf(b, " %s=%v", name, n.NumberedName(name))
		}
		fmt.Fprintln(b)
	}
	if c, ok := l.(lang.ContentClaimer); ok {
		fmt.Fprintf(b, "  ContentClaimer")
		for _, f := range []struct{ path, src string }{
			{"a.h", "class A {};\n"}, {"a.h", "int f(void);\n"}, {"a.H", "namespace n {}\n"},
			{"a.c", "class A {};\n"}, {"a.hpp", "int f(void);\n"},
		} {
			fmt.Fprintf(b, " %s:%q=%v", f.path, f.src, c.ClaimsContent(f.path, []byte(f.src)))
		}
		fmt.Fprintln(b)
	}
	x, err := l.NewExtractor()
	if err != nil {
		fmt.Fprintf(b, "  NewExtractor error %v\n", err)
		return
	}
	defer x.Close()
	if _, ok := x.(lang.TreeExtractor); ok {
		fmt.Fprintf(b, "  extractor TreeExtractor\n")
	}
	if _, ok := x.(lang.SymbolReader); ok {
		fmt.Fprintf(b, "  extractor SymbolReader\n")
	}
}

const wantRegistration = `c [.c .h] rules=cpp.rules
  Preparer
  StandAlone true
  MemberBodies [field_declaration_list]
  extractor TreeExtractor
  extractor SymbolReader
cpp [.cpp .cc .cxx .c++ .hpp .hh .hxx .h++ .ipp .tpp] rules=cpp.rules
  ContentClaimer a.h:"class A {};\n"=false a.h:"int f(void);\n"=false a.H:"namespace n {}\n"=true a.c:"class A {};\n"=false a.hpp:"int f(void);\n"=false
  extractor TreeExtractor
  extractor SymbolReader
csharp [.cs] rules=csharp.rules
  StandAlone true
  extractor TreeExtractor
  extractor SymbolReader
go [.go] rules=golang.rules
  Preparer
  StandAlone true
  MemberBodies [field_declaration_list]
  extractor TreeExtractor
  extractor SymbolReader
java [.java] rules=java.rules
  Preparer
  StandAlone true
  MemberBodies [class_body interface_body enum_body annotation_type_body]
  Numbered Outer$1=true Outer$12=true Outer$1Local=false Outer$=false Outer=false $3=true
  extractor TreeExtractor
  extractor SymbolReader
javascript [.js .jsx .mjs .cjs] rules=typescript.rules
  Preparer
  StandAlone true
  StandAloneTree
  MemberBodies [class_body interface_body object_type]
  MemberBodyChecker
  extractor TreeExtractor
  extractor SymbolReader
kotlin [.kt .kts] rules=kotlin.rules
  extractor TreeExtractor
  extractor SymbolReader
php [.php .phtml] rules=php.rules
  extractor TreeExtractor
  extractor SymbolReader
python [.py] rules=python.rules
  Preparer
  extractor TreeExtractor
  extractor SymbolReader
ruby [.rb .rake] rules=ruby.rules
  Preparer
  StandAlone true
  extractor TreeExtractor
  extractor SymbolReader
rust [.rs] rules=rust.rules
  Preparer
  StandAlone true
  MemberBodies [declaration_list]
  extractor TreeExtractor
  extractor SymbolReader
scala [.scala .sc] rules=scala.rules
  extractor TreeExtractor
  extractor SymbolReader
typescript [.ts .tsx .mts .cts] rules=typescript.rules
  Preparer
  StandAlone true
  StandAloneTree
  MemberBodies [class_body interface_body object_type]
  MemberBodyChecker
  extractor TreeExtractor
  extractor SymbolReader
`
