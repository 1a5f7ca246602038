package rust

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// How a Rust file becomes symbols:
//
//   - Functions, structs, unions (Struct), enums (their variants are Const
//     members, as Java enum constants are), traits (Interface, their methods
//     abstract unless they have a default body), type aliases, consts and
//     statics (Variable) are named after their module inside the file:
//     `helper`, `tests::helper` in an inline `mod tests { ... }`.
//   - An inline module is a hidden Package symbol: the resolver makes it a
//     module; its items stay at file level (Parent -1) so that the file
//     defines them.
//   - An impl block is a hidden Class symbol named "impl" whose Receiver is
//     the impl's type as written and whose Type is the trait, "" for an
//     inherent impl. Its functions are Methods named after the type
//     (`Point.new`; Static without a self parameter), its consts are its
//     members; the resolver attaches them to the type.
//   - `mod x;` is an Import of kind ImportModule (Name x, Path the #[path]
//     attribute); `use` declarations are ImportName (Path the module path,
//     Name the last segment) or ImportWildcard imports; an import's Scope is
//     the inline module or function it is declared in.
//   - macro_rules! definitions have no node kind and are left out; macro
//     invocations are counted (FileFacts.Macros), never calls.

func newExtraction(path string, src []byte, root *ts.Node) *extraction {
	facts := lang.NewFileFacts("rust", path, src, root)
	return &extraction{
		src:    src,
		facts:  facts,
		scopes: lang.NewScopeFinder(&facts.Symbols),
	}
}

// ExtractTree reads the facts off a tree of src the caller parsed.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	e.Q.Read(e.Cursor, root, src, x.readDefs, x.readUses)
	if err := e.readMacroArgs(x); err != nil {
		return nil, err
	}
	x.readRefs()
	return x.facts, nil
}

// ExtractSymbols reads the symbols of a tree of src alone, with the items'
// query only: what the history needs of each version of a file.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	e.Q.ReadDefs(e.Cursor, root, src, x.readDefs)
	return x.facts, nil
}

type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// modules are the indexes of the inline module symbols.
	modules []int
	// macroArgs are the invocations of macros whose arguments are
	// expressions, outermost only: [start, end) of `name!(...)`.
	macroArgs [][2]uint32
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// name is the text of an identifier without the raw prefix: `r#match` is
// the module match.
func (x *extraction) name(n *ts.Node) string { return strings.TrimPrefix(x.text(n), "r#") }

func (x *extraction) readDefs(q *lang.Query, matches []lang.Match) {
	var (
		cFunction  = q.Capture("function")
		cSignature = q.Capture("signature")
		cStruct    = q.Capture("struct")
		cUnion     = q.Capture("union")
		cEnum      = q.Capture("enum")
		cAlias     = q.Capture("alias")
		cConst     = q.Capture("const")
		cStatic    = q.Capture("static")
		cTrait     = q.Capture("trait")
		cImpl      = q.Capture("impl")
		cMod       = q.Capture("mod")
		cUse       = q.Capture("use")
		cExtern    = q.Capture("extern")
	)
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cFunction) != nil:
			x.addFunction(m.Node(cFunction))
		case m.Node(cSignature) != nil:
			x.addFunction(m.Node(cSignature))
		case m.Node(cStruct) != nil:
			x.addStruct(m.Node(cStruct))
		case m.Node(cUnion) != nil:
			x.addStruct(m.Node(cUnion))
		case m.Node(cEnum) != nil:
			x.addEnum(m.Node(cEnum))
		case m.Node(cAlias) != nil:
			x.addAlias(m.Node(cAlias))
		case m.Node(cConst) != nil:
			x.addValue(m.Node(cConst), graph.KindConst)
		case m.Node(cStatic) != nil:
			x.addValue(m.Node(cStatic), graph.KindVariable)
		case m.Node(cTrait) != nil:
			x.addTrait(m.Node(cTrait))
		case m.Node(cImpl) != nil:
			x.addImpl(m.Node(cImpl))
		case m.Node(cMod) != nil:
			x.addMod(m.Node(cMod))
		case m.Node(cUse) != nil:
			x.addUse(m.Node(cUse))
		case m.Node(cExtern) != nil:
			x.addExternCrate(m.Node(cExtern))
		}
	}
}

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

// parentOf is the innermost symbol other than a module that contains n:
// a function (items in blocks), a trait or an impl block; -1 when n is a
// module-level item.
func (x *extraction) parentOf(n *ts.Node) int {
	return x.scopes.Innermost(uint32(n.StartByte()), func(s *lang.Symbol) bool { return s.Kind != graph.KindPackage })
}

// moduleAt is the innermost inline module symbol containing pos, -1 when
// it is the file's own module.
func (x *extraction) moduleAt(pos uint32) int {
	best := -1
	for _, i := range x.modules {
		if x.facts.Symbols[i].Contains(pos) {
			best = i // later modules nest inside earlier ones
		}
	}
	return best
}

// qualify names an item: after its parent, or after its inline module.
func (x *extraction) qualify(n *ts.Node, parent int, name string) string {
	if parent >= 0 {
		return x.facts.Symbols[parent].Qual + "." + name
	}
	if m := x.moduleAt(uint32(n.StartByte())); m >= 0 {
		return x.facts.Symbols[m].Qual + "::" + name
	}
	return name
}

// inBody reports whether the parent is a callable: an item in a block.
func (x *extraction) inBody(parent int) bool {
	return parent >= 0 && x.facts.Symbols[parent].Kind.IsCallable()
}

func isPub(n *ts.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "visibility_modifier" {
			return true
		}
	}
	return false
}

// header is the declaration text up to its body, on one line.
func (x *extraction) header(n *ts.Node, body *ts.Node) string {
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[n.StartByte():end])))
	s = strings.TrimSuffix(s, ";")
	s = lang.Cap(s, 300)
	return strings.TrimSpace(s)
}

// doc returns the first paragraph of the outer doc comments (`///`,
// `/** */`) above n, across attributes written between them and n.
func (x *extraction) doc(n *ts.Node) string {
	var texts []string
	line := int(n.StartPosition().Row)
siblings:
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		end := int(p.EndPosition().Row)
		if p.EndPosition().Column == 0 && end > int(p.StartPosition().Row) {
			end--
		}
		if end != line-1 && end != line {
			break
		}
		switch p.Kind() {
		case "attribute_item":
		case "line_comment", "block_comment":
			t := x.text(p)
			switch {
			case strings.HasPrefix(t, "///") && !strings.HasPrefix(t, "////"):
				texts = append(texts, strings.TrimPrefix(t, "///"))
			case strings.HasPrefix(t, "/**") && !strings.HasPrefix(t, "/***"):
				texts = append(texts, t)
			}
		default:
			break siblings
		}
		line = int(p.StartPosition().Row)
	}
	for i, j := 0, len(texts)-1; i < j; i, j = i+1, j-1 {
		texts[i], texts[j] = texts[j], texts[i]
	}
	var lines []string
	for _, t := range texts {
		if strings.HasPrefix(t, "/**") {
			lines = append(lines, lang.CleanComment([]string{t})...)
		} else {
			lines = append(lines, strings.TrimSpace(t))
		}
	}
	return lang.FirstParagraph(lines)
}

// container is the item whose declaration list holds n: an impl_item,
// trait_item, mod_item or foreign_mod_item; nil for other places.
func container(n *ts.Node) *ts.Node {
	p := n.Parent()
	if p == nil || p.Kind() != "declaration_list" {
		return nil
	}
	return p.Parent()
}
