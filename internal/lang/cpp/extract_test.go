package cpp_test

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/cpp"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestSymbolDetails extracts one file and checks what each symbol carries
// besides its name: kind, qualified name, hidden, doc, signature,
// exported, static, abstract, receiver, parameters, declared and returned
// types; and the imports (includes and using directives).
func TestSymbolDetails(t *testing.T) {
	src := `#include "base.h"
#include <vector>

namespace shop::model {

/**
 * A stored record.
 *
 * Longer text.
 */
class Record : public Base {
public:
    explicit Record(long id, const std::string& name = "");
    virtual ~Record();
    virtual std::string table() const = 0;
    int size() const;
    static Record* find(long id, ...);
    Record& operator+=(const Record& other);
protected:
    std::vector<int> tags_;
    static int count;
};

/// Saves a record.
void save(Record& r);

using Records = std::vector<Record*>;
typedef Record* RecordPtr;
enum class Color { Red, Green };
constexpr int kLimit = 3;

namespace {
int helper(int x) { return x; }
}

static int counter;

}  // namespace shop::model

using namespace shop::model;
using shop::model::save;

Record::Record(long id, const std::string& name) : Base(id) {}

int shop::model::Record::size() const { return 0; }

template <typename T>
T pick(const T& a, T&& b) { return a; }
`
	facts := langtest.Extract(t, cpp.Language, "src/record.cpp", src)
	if facts.Language != "cpp" || facts.SyntaxErrors != 0 {
		t.Errorf("language %q, %d syntax errors; want cpp, 0", facts.Language, facts.SyntaxErrors)
	}
	wantImports := []lang.Import{
		{Kind: lang.ImportSideEffect, Path: "base.h", Line: 1, Scope: -1},
		{Kind: lang.ImportSideEffect, Path: "<vector>", Line: 2, Scope: -1},
		{Kind: lang.ImportWildcard, Path: "shop.model", Line: 40, Scope: -1},
		{Kind: lang.ImportName, Path: "shop.model.save", Name: "save", Line: 41, Scope: -1},
	}
	if !reflect.DeepEqual(facts.Imports, wantImports) {
		t.Errorf("imports %+v\nwant %+v", facts.Imports, wantImports)
	}
	byQual := map[string]lang.Symbol{}
	for _, s := range facts.Symbols {
		byQual[s.Qual] = s
	}
	str := "const std::string&"
	tests := []struct {
		qual                     string
		kind                     graph.NodeKind
		hidden, exported, static bool
		abstract                 bool
		typ, receiver            string
		returns                  []string
		params                   []lang.Param
		doc, signature           string
	}{
		{qual: "#namespace.shop.model", kind: graph.KindPackage, hidden: true, exported: true},
		{qual: "shop.model.Record", kind: graph.KindClass, exported: true, doc: "A stored record.",
			signature: "class Record : public Base"},
		{qual: "#decl.shop.model.Record.Record", kind: graph.KindConstructor, hidden: true, exported: true, abstract: true,
			params: []lang.Param{{Name: "id", Type: "long"}, {Name: "name", Type: str, Optional: true}}},
		{qual: "#decl.shop.model.Record.~Record", kind: graph.KindMethod, hidden: true, exported: true, abstract: true},
		{qual: "shop.model.Record.table", kind: graph.KindMethod, exported: true, abstract: true,
			returns: []string{"std::string"}, signature: "virtual std::string table() const = 0"},
		{qual: "#decl.shop.model.Record.find", kind: graph.KindMethod, hidden: true, exported: true, static: true,
			abstract: true, returns: []string{"Record*"},
			params: []lang.Param{{Name: "id", Type: "long"}, {Name: "...", Variadic: true}}},
		{qual: "#decl.shop.model.Record.operator+=", kind: graph.KindMethod, hidden: true, exported: true,
			abstract: true, returns: []string{"Record&"}, params: []lang.Param{{Name: "other", Type: "const Record&"}}},
		{qual: "shop.model.Record.tags_", kind: graph.KindProperty, exported: true, typ: "std::vector<int>"},
		{qual: "shop.model.Record.count", kind: graph.KindProperty, exported: true, static: true, typ: "int"},
		{qual: "#proto.shop.model.save", kind: graph.KindFunction, hidden: true, exported: true, abstract: true,
			returns: []string{"void"}, params: []lang.Param{{Name: "r", Type: "Record&"}}},
		{qual: "shop.model.Records", kind: graph.KindTypeAlias, exported: true, typ: "std::vector<Record*>"},
		{qual: "shop.model.RecordPtr", kind: graph.KindTypeAlias, exported: true, typ: "Record*"},
		{qual: "shop.model.Color", kind: graph.KindEnum, exported: true},
		{qual: "shop.model.Color.Red", kind: graph.KindConst, exported: true, static: true, typ: "Color"},
		{qual: "shop.model.kLimit", kind: graph.KindConst, exported: true, typ: "const int"},
		{qual: "shop.model.helper", kind: graph.KindFunction, static: true, returns: []string{"int"},
			params: []lang.Param{{Name: "x", Type: "int"}}},
		{qual: "shop.model.counter", kind: graph.KindVariable, static: true, typ: "int"},
		{qual: "Record.Record", kind: graph.KindConstructor, exported: true, receiver: "Record",
			params:    []lang.Param{{Name: "id", Type: "long"}, {Name: "name", Type: str}},
			signature: "Record::Record(long id, const std::string& name) : Base(id)"},
		{qual: "shop.model.Record.size", kind: graph.KindMethod, exported: true, receiver: "shop.model.Record",
			returns: []string{"int"}, signature: "int shop::model::Record::size() const"},
		{qual: "#decl.shop.model.Record.size", kind: graph.KindMethod, hidden: true, exported: true, abstract: true,
			returns: []string{"int"}},
		{qual: "pick", kind: graph.KindFunction, exported: true, returns: []string{"T"},
			params: []lang.Param{{Name: "a", Type: "const T&"}, {Name: "b", Type: "T&&"}}},
	}
	for _, tt := range tests {
		s, ok := byQual[tt.qual]
		if !ok {
			t.Errorf("no symbol %s", tt.qual)
			continue
		}
		if s.Kind != tt.kind || s.Hidden != tt.hidden || s.Exported != tt.exported || s.Static != tt.static ||
			s.Abstract != tt.abstract || s.Type != tt.typ || s.Receiver != tt.receiver ||
			!reflect.DeepEqual(s.Returns, tt.returns) || !reflect.DeepEqual(s.Params, tt.params) {
			t.Errorf("%s: kind %v hidden %v exported %v static %v abstract %v type %q receiver %q returns %v params %+v\nwant %v %v %v %v %v %q %q %v %+v",
				tt.qual, s.Kind, s.Hidden, s.Exported, s.Static, s.Abstract, s.Type, s.Receiver, s.Returns, s.Params,
				tt.kind, tt.hidden, tt.exported, tt.static, tt.abstract, tt.typ, tt.receiver, tt.returns, tt.params)
		}
		if tt.doc != "" && s.Doc != tt.doc {
			t.Errorf("%s: doc %q, want %q", tt.qual, s.Doc, tt.doc)
		}
		if tt.signature != "" && s.Signature != tt.signature {
			t.Errorf("%s: signature %q, want %q", tt.qual, s.Signature, tt.signature)
		}
	}
	if s := byQual["#proto.shop.model.save"]; s.Doc != "" {
		t.Errorf("a prototype carries no doc: %q", s.Doc)
	}
	if got := len(byQual); got == 0 {
		t.Fatal("no symbols")
	}
	pick := byQual["pick"]
	if len(pick.TypeParams) != 1 || pick.TypeParams[0].Name != "T" {
		t.Errorf("pick's type parameters %+v, want T", pick.TypeParams)
	}
}
