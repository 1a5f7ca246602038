package php_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/php"
)

// TestSymbolDetails extracts one file and checks what each symbol carries
// besides its name: kind, qualified name, doc, signature, visibility,
// static, abstract, parameter and declared types written fully qualified.
func TestSymbolDetails(t *testing.T) {
	src := `<?php
namespace App\Models;

use App\Db\{Connection as Conn};

/**
 * A stored record.
 *
 * Longer text.
 */
abstract class Record extends Base implements \Countable
{
    use \App\Traits\Timestamps;

    protected ?Conn $conn = null;

    public function __construct(private readonly Conn $db) {}

    abstract protected function table(): string;

    public static function find(int $id, Query ...$q): ?static {}
}
`
	facts := langtest.Extract(t, php.Language, "src/Models/Record.php", src)
	if facts.Package != "App.Models" {
		t.Errorf("package %q, want App.Models", facts.Package)
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
		{"Record", graph.KindClass, true, false, true, ""},
		{"Record.conn", graph.KindProperty, false, false, false, "App.Db.Connection"},
		{"Record.__construct", graph.KindConstructor, true, false, false, ""},
		{"Record.db", graph.KindProperty, false, false, false, "App.Db.Connection"},
		{"Record.table", graph.KindMethod, false, false, true, ""},
		{"Record.find", graph.KindMethod, true, true, false, ""},
	}
	for _, tt := range tests {
		s, ok := byQual[tt.qual]
		if !ok {
			t.Errorf("no symbol %s", tt.qual)
			continue
		}
		if s.Kind != tt.kind || s.Exported != tt.exported || s.Static != tt.static || s.Abstract != tt.abstract || s.Type != tt.typ {
			t.Errorf("%s: kind %v exported %v static %v abstract %v type %q, want %v %v %v %v %q", tt.qual,
				s.Kind, s.Exported, s.Static, s.Abstract, s.Type, tt.kind, tt.exported, tt.static, tt.abstract, tt.typ)
		}
	}
	rec := byQual["Record"]
	if rec.Doc != "A stored record." {
		t.Errorf("doc %q", rec.Doc)
	}
	wantBases := []lang.Base{{Type: "App.Traits.Timestamps", Kind: lang.BaseEmbedded},
		{Type: "App.Models.Base", Kind: lang.BaseExtends}, {Type: "Countable", Kind: lang.BaseImplements}}
	if len(rec.Bases) != len(wantBases) {
		t.Fatalf("bases %v, want %v", rec.Bases, wantBases)
	}
	for i := range wantBases {
		if rec.Bases[i] != wantBases[i] {
			t.Errorf("base %d: %v, want %v", i, rec.Bases[i], wantBases[i])
		}
	}
	find := byQual["Record.find"]
	if find.Signature != "public static function find(int $id, Query ...$q): ?static" {
		t.Errorf("signature %q", find.Signature)
	}
	if len(find.Params) != 2 || find.Params[1].Type != "App.Models.Query" || !find.Params[1].Variadic ||
		len(find.Returns) != 1 || find.Returns[0] != "App.Models.Record" {
		t.Errorf("params %+v returns %v", find.Params, find.Returns)
	}
}
