package scala_test

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/scala"
)

// TestSymbolDetails extracts one file and checks what each symbol carries
// besides its name: kind, qualified name, doc, signature, visibility,
// static, abstract, getter, receiver, parameters, declared and returned
// types; and the imports in each of Scala's forms.
func TestSymbolDetails(t *testing.T) {
	src := `package shop
package model

import shop.db.{Conn => Db, Pool as P, Query}
import shop.util._
import shop.text.Format

/**
 * A stored record.
 *
 * Longer text.
 */
abstract class Record(val id: Long, db: Db)(implicit p: P) extends Base(1) with Ordered[Record] {
  protected[model] var conn: Db = null

  def table: String

  private def save(tags: String*)(implicit q: Query): Unit = ()

  def this(id: Long) = this(id, null)
}

object Record {
  def find(id: Long, limit: Int = 10): Record = null
}

case class Tag(name: String)

trait Store {
  def put(r: Record): Unit
  val size: Int
}

object Registry {
  private def register(r: Record): Unit = ()
}

enum Color:
  case Red, Green

/** Describes a record. */
extension (r: Record)
  def describe: String = r.table

implicit class RichTag(t: Tag) {
  def shout(): String = t.name
}

type Records = List[Record]

val Limit = 3

given order: Ordering[Record] = null
`
	facts := langtest.Extract(t, scala.Language, "src/Record.scala", src)
	if facts.Package != "shop.model" || facts.SyntaxErrors != 0 {
		t.Errorf("package %q, %d syntax errors; want shop.model, 0", facts.Package, facts.SyntaxErrors)
	}
	wantImports := []lang.Import{
		{Kind: lang.ImportWildcard, Path: "shop", Name: "package", Line: 2, Scope: -1},
		{Kind: lang.ImportName, Path: "shop.db.Conn", Name: "Db", Alias: "Db", Line: 4, Scope: -1},
		{Kind: lang.ImportName, Path: "shop.db.Pool", Name: "P", Alias: "P", Line: 4, Scope: -1},
		{Kind: lang.ImportName, Path: "shop.db.Query", Name: "Query", Line: 4, Scope: -1},
		{Kind: lang.ImportWildcard, Path: "shop.util", Line: 5, Scope: -1},
		{Kind: lang.ImportName, Path: "shop.text.Format", Name: "Format", Line: 6, Scope: -1},
	}
	if !reflect.DeepEqual(facts.Imports, wantImports) {
		t.Errorf("imports %+v, want %+v", facts.Imports, wantImports)
	}
	byQual := map[string]lang.Symbol{}
	for _, s := range facts.Symbols {
		if _, dup := byQual[s.Qual]; !dup {
			byQual[s.Qual] = s
		}
	}
	tests := []struct {
		qual                     string
		kind                     graph.NodeKind
		exported, static, getter bool
		abstract                 bool
		typ, receiver            string
		returns                  []string
		params                   []lang.Param
		doc, signature           string
	}{
		{qual: "Record", kind: graph.KindClass, exported: true, abstract: true, doc: "A stored record.",
			signature: "abstract class Record(val id: Long, db: Db)(implicit p: P) extends Base(1) with Ordered[Record]"},
		{qual: "Record.Record", kind: graph.KindConstructor, exported: true,
			params: []lang.Param{{Name: "id", Type: "Long"}, {Name: "db", Type: "Db"}}},
		{qual: "Record.id", kind: graph.KindProperty, exported: true, typ: "Long"},
		{qual: "Record.conn", kind: graph.KindProperty, typ: "Db"},
		{qual: "Record.table", kind: graph.KindMethod, exported: true, abstract: true, getter: true, returns: []string{"String"}},
		{qual: "Record.save", kind: graph.KindMethod, returns: []string{"Unit"},
			params: []lang.Param{{Name: "tags", Type: "String", Variadic: true}}},
		{qual: "Record.find", kind: graph.KindMethod, exported: true, static: true, returns: []string{"Record"},
			params: []lang.Param{{Name: "id", Type: "Long"}, {Name: "limit", Type: "Int", Optional: true}}},
		{qual: "Tag", kind: graph.KindClass, exported: true},
		{qual: "Tag.name", kind: graph.KindProperty, exported: true, typ: "String"},
		{qual: "Store", kind: graph.KindInterface, exported: true, abstract: true},
		{qual: "Store.put", kind: graph.KindMethod, exported: true, abstract: true, returns: []string{"Unit"},
			params: []lang.Param{{Name: "r", Type: "Record"}}},
		{qual: "Store.size", kind: graph.KindProperty, exported: true, abstract: true, typ: "Int"},
		{qual: "Registry", kind: graph.KindClass, exported: true},
		{qual: "Registry.register", kind: graph.KindMethod, static: true, returns: []string{"Unit"},
			params: []lang.Param{{Name: "r", Type: "Record"}}},
		{qual: "Color", kind: graph.KindEnum, exported: true},
		{qual: "Color.Red", kind: graph.KindConst, exported: true, static: true, typ: "Color"},
		{qual: "Record.describe", kind: graph.KindFunction, exported: true, static: true, getter: true,
			receiver: "Record", returns: []string{"String"}, signature: "def describe: String"},
		{qual: "RichTag", kind: graph.KindClass, exported: true, receiver: "Tag"},
		{qual: "RichTag.shout", kind: graph.KindMethod, exported: true, returns: []string{"String"}},
		{qual: "Records", kind: graph.KindTypeAlias, exported: true, typ: "List[Record]"},
		{qual: "Limit", kind: graph.KindVariable, exported: true, static: true},
		{qual: "order", kind: graph.KindVariable, exported: true, static: true, typ: "Ordering[Record]"},
	}
	for _, tt := range tests {
		s, ok := byQual[tt.qual]
		if !ok {
			t.Errorf("no symbol %s", tt.qual)
			continue
		}
		if s.Kind != tt.kind || s.Exported != tt.exported || s.Static != tt.static || s.Abstract != tt.abstract ||
			s.Getter != tt.getter || s.Type != tt.typ || s.Receiver != tt.receiver ||
			!reflect.DeepEqual(s.Returns, tt.returns) || !reflect.DeepEqual(s.Params, tt.params) {
			t.Errorf("%s: kind %v exported %v static %v abstract %v getter %v type %q receiver %q returns %v params %+v; want %v %v %v %v %v %q %q %v %+v",
				tt.qual, s.Kind, s.Exported, s.Static, s.Abstract, s.Getter, s.Type, s.Receiver, s.Returns, s.Params,
				tt.kind, tt.exported, tt.static, tt.abstract, tt.getter, tt.typ, tt.receiver, tt.returns, tt.params)
		}
		if tt.doc != "" && s.Doc != tt.doc {
			t.Errorf("%s: doc %q, want %q", tt.qual, s.Doc, tt.doc)
		}
		if tt.signature != "" && s.Signature != tt.signature {
			t.Errorf("%s: signature %q, want %q", tt.qual, s.Signature, tt.signature)
		}
	}
	if n := len(facts.Symbols); n != 26 {
		for _, s := range facts.Symbols {
			t.Logf("%v %s", s.Kind, s.Qual)
		}
		t.Errorf("%d symbols, want 26", n)
	}
}
