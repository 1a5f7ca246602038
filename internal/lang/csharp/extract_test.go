package csharp_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/csharp"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestSymbolDetails extracts one file and checks what each symbol carries
// besides its name: kind, qualified name, doc, signature, visibility,
// static, abstract, declared and returned types; and its imports.
func TestSymbolDetails(t *testing.T) {
	src := `global using System;
using static Lib.Strings;
using Map = Lib.Collections.Map;

namespace Shop.Orders;

/// <summary>
/// An order of items.
/// </summary>
/// <remarks>Not this.</remarks>
class Order : Base, IOrder
{
    public event Handler Changed;
    private readonly Map items;
    internal static int Count { get; set; }
    public decimal Total => 0;
    public Order(int id) {}
    protected abstract List<Item> Lines(Item first, int n);
    public static Order Of(this Item i) { return null; }
    class Line {}
}

public interface IOrder { void Submit(); }

enum State { Open, Closed }

public record Size(int W, Item H);
`
	facts := langtest.Extract(t, csharp.Language, "src/Order.cs", src)
	if facts.Package != "Shop.Orders" {
		t.Errorf("package %q, want Shop.Orders", facts.Package)
	}
	byQual := map[string]lang.Symbol{}
	for _, s := range facts.Symbols {
		byQual[s.Qual] = s
	}
	tests := []struct {
		qual     string
		kind     graph.NodeKind
		exported bool
		static   bool
		abstract bool
		typ      string
	}{
		{"Order", graph.KindClass, true, false, false, ""},
		{"Order.Changed", graph.KindProperty, true, false, false, "Handler"},
		{"Order.items", graph.KindProperty, false, false, false, "Map"},
		{"Order.Count", graph.KindProperty, true, true, false, "int"},
		{"Order.Total", graph.KindProperty, true, false, false, "decimal"},
		{"Order.Order", graph.KindConstructor, true, false, false, ""},
		{"Order.Lines", graph.KindMethod, false, false, true, ""},
		{"Order.Of", graph.KindMethod, true, true, false, ""},
		{"Order.Line", graph.KindClass, false, false, false, ""},
		{"IOrder", graph.KindInterface, true, false, true, ""},
		{"IOrder.Submit", graph.KindMethod, true, false, true, ""},
		{"State", graph.KindEnum, true, false, false, ""},
		{"State.Closed", graph.KindConst, true, true, false, ""},
		{"Size", graph.KindClass, true, false, false, ""},
		{"Size.H", graph.KindProperty, true, false, false, "Item"},
	}
	for _, tt := range tests {
		s, ok := byQual[tt.qual]
		if !ok {
			t.Errorf("%s: missing", tt.qual)
			continue
		}
		if s.Kind != tt.kind || s.Exported != tt.exported || s.Static != tt.static || s.Abstract != tt.abstract || s.Type != tt.typ {
			t.Errorf("%s: kind %s exported %v static %v abstract %v type %q, want %s %v %v %v %q",
				tt.qual, s.Kind, s.Exported, s.Static, s.Abstract, s.Type, tt.kind, tt.exported, tt.static, tt.abstract, tt.typ)
		}
	}
	if d := byQual["Order"].Doc; d != "An order of items." {
		t.Errorf("doc %q", d)
	}
	if sig := byQual["Order.Lines"].Signature; sig != "protected abstract List<Item> Lines(Item first, int n);" {
		t.Errorf("signature %q", sig)
	}
	if r := byQual["Order.Lines"].Returns; len(r) != 1 || r[0] != "Item[]" {
		t.Errorf("returns %v, want [Item[]] (a sequence of Item)", r)
	}
	if d := byQual["Order.Of"].Decorators; len(d) != 1 {
		t.Errorf("extension method not marked: %v", d)
	}
	if b := byQual["Order"].Bases; len(b) != 2 || b[0].Type != "Base" || b[1].Type != "IOrder" {
		t.Errorf("bases %v", b)
	}
	want := []lang.Import{
		{Kind: lang.ImportWildcard, Path: "System", Name: "global"},
		{Kind: lang.ImportName, Path: "Lib.Strings"},
		{Kind: lang.ImportName, Path: "Lib.Collections.Map", Alias: "Map"},
	}
	if len(facts.Imports) != len(want) {
		t.Fatalf("imports %+v", facts.Imports)
	}
	for i, w := range want {
		g := facts.Imports[i]
		if g.Kind != w.Kind || g.Path != w.Path || g.Name != w.Name || g.Alias != w.Alias {
			t.Errorf("import %d: %+v, want %+v", i, g, w)
		}
	}
}
