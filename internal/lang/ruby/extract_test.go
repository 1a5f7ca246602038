package ruby_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/ruby"
)

const visibilitySource = `# Stores things.
#
# Longer text.
module Store
  # The default size.
  SIZE = 3

  class Box < Base::Item
    attr_accessor :items

    # Makes a box.
    def initialize(items = [], *rest, key:, &blk)
    end

    def self.empty
    end

    class << self
      def full; end
    end

    def put(x); end

    protected

    def check; end

    public

    def open; end

    private

    attr_reader :secret

    def seal; end

    def lid; end
    public :lid
  end
end

def helper; end
`

// TestSymbols reads one file and checks each symbol's kind, qualified
// name, visibility, staticness, doc and parameters.
func TestSymbols(t *testing.T) {
	ff := langtest.Extract(t, ruby.Language, "store.rb", visibilitySource)
	type want struct {
		kind             graph.NodeKind
		exported, static bool
		doc              string
	}
	wants := map[string]want{
		"Store":                {graph.KindInterface, true, false, "Stores things."},
		"Store.SIZE":           {graph.KindConst, true, true, "The default size."},
		"Store.Box":            {graph.KindClass, true, false, ""},
		"Store.Box.items":      {graph.KindProperty, true, false, ""},
		"Store.Box.initialize": {graph.KindConstructor, true, false, "Makes a box."},
		"Store.Box.empty":      {graph.KindMethod, true, true, ""},
		"Store.Box.full":       {graph.KindMethod, true, true, ""},
		"Store.Box.put":        {graph.KindMethod, true, false, ""},
		"Store.Box.check":      {graph.KindMethod, false, false, ""},
		"Store.Box.open":       {graph.KindMethod, true, false, ""},
		"Store.Box.secret":     {graph.KindProperty, false, false, ""},
		"Store.Box.seal":       {graph.KindMethod, false, false, ""},
		"Store.Box.lid":        {graph.KindMethod, true, false, ""},
		"helper":               {graph.KindFunction, true, false, ""},
	}
	got := map[string]lang.Symbol{}
	for _, s := range ff.Symbols {
		got[s.Qual] = s
	}
	for qual, w := range wants {
		s, ok := got[qual]
		if !ok {
			t.Errorf("no symbol %s", qual)
			continue
		}
		if s.Kind != w.kind || s.Exported != w.exported || s.Static != w.static || s.Doc != w.doc {
			t.Errorf("%s: kind %v exported %v static %v doc %q, want %v %v %v %q", qual, s.Kind, s.Exported, s.Static, s.Doc, w.kind, w.exported, w.static, w.doc)
		}
	}
	if len(got) != len(wants) {
		t.Errorf("%d symbols, want %d", len(got), len(wants))
	}
	box := got["Store.Box"]
	if len(box.Bases) != 1 || box.Bases[0].Type != "Base.Item" {
		t.Errorf("Box bases %v, want Base.Item", box.Bases)
	}
	init := got["Store.Box.initialize"]
	if len(init.Params) != 4 || !init.Params[0].Optional || !init.Params[1].Variadic || init.Params[2].Name != "key" {
		t.Errorf("initialize params %+v", init.Params)
	}
	if init.Signature != "def initialize(items = [], *rest, key:, &blk)" {
		t.Errorf("initialize signature %q", init.Signature)
	}
}
