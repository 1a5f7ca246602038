package kotlin_test

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/kotlin"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestSymbolDetails extracts one file and checks what each symbol carries
// besides its name: kind, qualified name, doc, signature, visibility,
// static, abstract, receiver, parameters, declared and returned types.
func TestSymbolDetails(t *testing.T) {
	src := `package shop.model

import shop.db.Conn as Db
import shop.util.*

/**
 * A stored record.
 *
 * Longer text.
 */
abstract class Record(val id: Long, db: Db) : Base(), Comparable<Record> {
    internal var conn: Db? = null

    abstract fun table(): String

    companion object {
        fun find(id: Long, vararg tags: String, limit: Int = 10): Record? = null
    }
}

interface Store {
    fun save(r: Record)
}

object Registry {
    private fun register(r: Record) {
    }
}

enum class Color {
    RED
}

/** Formats a record. */
fun Record.describe(): String = table()

typealias Records = List<Record>

const val LIMIT = 3
`
	facts := langtest.Extract(t, kotlin.Language, "src/Record.kt", src)
	if facts.Package != "shop.model" || facts.SyntaxErrors != 0 {
		t.Errorf("package %q, %d syntax errors; want shop.model, 0", facts.Package, facts.SyntaxErrors)
	}
	wantImports := []lang.Import{
		{Kind: lang.ImportName, Path: "shop.db.Conn", Name: "Db", Alias: "Db", Line: 3, Scope: -1},
		{Kind: lang.ImportWildcard, Path: "shop.util", Line: 4, Scope: -1},
	}
	if !reflect.DeepEqual(facts.Imports, wantImports) {
		t.Errorf("imports %+v, want %+v", facts.Imports, wantImports)
	}
	byQual := map[string]lang.Symbol{}
	for _, s := range facts.Symbols {
		byQual[s.Qual] = s
	}
	tests := []struct {
		qual             string
		kind             graph.NodeKind
		exported, static bool
		abstract         bool
		typ, receiver    string
		returns          []string
		params           []lang.Param
		doc, signature   string
	}{
		{qual: "Record", kind: graph.KindClass, exported: true, abstract: true, doc: "A stored record.",
			signature: "abstract class Record(val id: Long, db: Db) : Base(), Comparable<Record>"},
		{qual: "Record.Record", kind: graph.KindConstructor, exported: true,
			params: []lang.Param{{Name: "id", Type: "Long"}, {Name: "db", Type: "Db"}}},
		{qual: "Record.id", kind: graph.KindProperty, exported: true, typ: "Long"},
		{qual: "Record.conn", kind: graph.KindProperty, typ: "Db"},
		{qual: "Record.table", kind: graph.KindMethod, exported: true, abstract: true, returns: []string{"String"}},
		{qual: "Record.find", kind: graph.KindMethod, exported: true, static: true, returns: []string{"Record"},
			params: []lang.Param{{Name: "id", Type: "Long"}, {Name: "tags", Type: "String", Variadic: true},
				{Name: "limit", Type: "Int", Optional: true}}},
		{qual: "Store", kind: graph.KindInterface, exported: true, abstract: true},
		{qual: "Store.save", kind: graph.KindMethod, exported: true, abstract: true,
			params: []lang.Param{{Name: "r", Type: "Record"}}},
		{qual: "Registry", kind: graph.KindClass, exported: true},
		{qual: "Registry.register", kind: graph.KindMethod, static: true,
			params: []lang.Param{{Name: "r", Type: "Record"}}},
		{qual: "Color", kind: graph.KindEnum, exported: true},
		{qual: "Color.RED", kind: graph.KindConst, exported: true, static: true, typ: "Color"},
		{qual: "Record.describe", kind: graph.KindFunction, exported: true, receiver: "Record",
			returns: []string{"String"}, doc: "Formats a record.", signature: "fun Record.describe(): String"},
		{qual: "Records", kind: graph.KindTypeAlias, exported: true},
		{qual: "LIMIT", kind: graph.KindConst, exported: true, static: true},
	}
	for _, tt := range tests {
		s, ok := byQual[tt.qual]
		if !ok {
			t.Errorf("no symbol %s", tt.qual)
			continue
		}
		if s.Kind != tt.kind || s.Exported != tt.exported || s.Static != tt.static || s.Abstract != tt.abstract ||
			s.Type != tt.typ || s.Receiver != tt.receiver || !reflect.DeepEqual(s.Returns, tt.returns) ||
			!reflect.DeepEqual(s.Params, tt.params) {
			t.Errorf("%s: kind %v exported %v static %v abstract %v type %q receiver %q returns %v params %+v; want %v %v %v %v %q %q %v %+v",
				tt.qual, s.Kind, s.Exported, s.Static, s.Abstract, s.Type, s.Receiver, s.Returns, s.Params,
				tt.kind, tt.exported, tt.static, tt.abstract, tt.typ, tt.receiver, tt.returns, tt.params)
		}
		if tt.doc != "" && s.Doc != tt.doc {
			t.Errorf("%s: doc %q, want %q", tt.qual, s.Doc, tt.doc)
		}
		if tt.signature != "" && s.Signature != tt.signature {
			t.Errorf("%s: signature %q, want %q", tt.qual, s.Signature, tt.signature)
		}
	}
}
