package langtest

import (
	"fmt"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// checkAffected edits the facts of each file of the family in ways a real
// edit changes them (a symbol renamed, which removes one name and adds
// another; a symbol's declared type, value, results and supertypes
// dropped; a binding's value dropped), each edit also changing the text of
// the declarations around it. After each, the files lang.Affected names
// are resolved again and the others' edges are taken from a resolution
// before the edit; the edges and call counts must equal a resolution of
// all files after the edit. Edits Affected answers with "resolve
// everything" are counted in fallbacks, not checked.
func checkAffected(fam family) (editStats, error) {
	var edits []edit
	for fi, f := range fam.facts {
		for _, m := range mutations(f) {
			edits = append(edits, edit{fi, m})
		}
	}
	return checkEdits(fam, edits)
}

// edit is a mutation of the family's file at index file.
type edit struct {
	file int
	mutation
}

// editStats count the edits checked (checked), those Affected answered
// with every file (fallbacks), and the files the checked ones resolved.
type editStats struct{ checked, fallbacks, resolved int }

// checkEdits applies each edit alone to the family's facts and checks it
// as checkAffected says.
func checkEdits(fam family, edits []edit) (st editStats, _ error) {
	before := resolveByFile(fam, nil)
	for _, ed := range edits {
		f, m := fam.facts[ed.file], ed.mutation
		facts := append([]*lang.FileFacts(nil), fam.facts...)
		facts[ed.file] = m.facts
		after := family{fam.rules, facts, fam.config}
		aff, why := lang.Affected(facts, []lang.FileChange{{Old: f, New: m.facts}})
		if why != "" {
			st.fallbacks++
			continue
		}
		st.checked++
		st.resolved += len(aff)
		want := resolveByFile(after, nil)
		have := resolveByFile(after, func(p string) bool { return aff[p] })
		for p, lines := range before.edges {
			if !aff[p] {
				have.edges[p] = lines
			}
		}
		for p, st := range before.stats {
			if !aff[p] {
				have.stats[p] = st
			}
		}
		if err := sameEdges(fmt.Sprintf("%s after %s", f.Path, m.what), want.all(), have.all()); err != nil {
			return st, fmt.Errorf("%w\n(re-resolved %s)", err, strings.Join(keys(aff), " "))
		}
		if w, h := want.total(), have.total(); w != h {
			return st, fmt.Errorf("%s after %s: counts %+v, a resolution of all files %+v", f.Path, m.what, h, w)
		}
	}
	return st, nil
}

// byFile is a resolution's CALLS and REFERENCES edges (as lines) and call
// counts by the file they come from.
type byFile struct {
	edges map[string][]string
	stats map[string]lang.ResolveStats
}

func (b byFile) all() []string {
	var out []string
	for _, l := range b.edges {
		out = append(out, l...)
	}
	sort.Strings(out)
	return out
}

func (b byFile) total() lang.ResolveStats {
	var t lang.ResolveStats
	for _, s := range b.stats {
		t.Add(s)
	}
	return t
}

func resolveByFile(fam family, keep func(string) bool) byFile {
	g := graph.New()
	p := lang.NewProgram(fam.rules, fam.facts, fam.config)
	out := byFile{edges: map[string][]string{}, stats: map[string]lang.ResolveStats{}}
	p.ResolveEach(g, keep, func(path string, st lang.ResolveStats) { out.stats[path] = st })
	for _, e := range g.Edges() {
		if e.Type != graph.EdgeCalls && e.Type != graph.EdgeReferences {
			continue
		}
		n, _ := g.Node(e.Src)
		file := n.FilePath
		if n.Kind == graph.KindFile {
			file = n.QualifiedName
		}
		out.edges[file] = append(out.edges[file], edgeLine(e))
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type mutation struct {
	what  string
	facts *lang.FileFacts
}

// mutations returns edited copies of f: each of its symbols and bindings
// edited in each way that applies.
func mutations(f *lang.FileFacts) []mutation {
	var out []mutation
	f.LoadCalls() // before the copies
	edit := func(what string, fn func(c *lang.FileFacts)) {
		c := *f
		c.Symbols = append([]lang.Symbol(nil), f.Symbols...)
		c.Bindings = append([]lang.Binding(nil), f.Bindings...)
		c.Calls = append([]lang.Call(nil), f.Calls...)
		fn(&c)
		out = append(out, mutation{what, &c})
	}
	// touch changes the text of symbol i and of the symbols around it.
	touch := func(c *lang.FileFacts, i int) {
		for ; i >= 0 && i < len(c.Symbols); i = c.Symbols[i].Parent {
			c.Symbols[i].Content += " "
		}
	}
	hasChild := make([]bool, len(f.Symbols))
	for i := range f.Symbols {
		if p := f.Symbols[i].Parent; p >= 0 {
			hasChild[p] = true
		}
	}
	// grow inserts a byte at p: every position from p on moves by one.
	grow := func(c *lang.FileFacts, p uint32) {
		at := func(b *uint32) {
			if *b >= p {
				*b++
			}
		}
		for k := range c.Symbols {
			at(&c.Symbols[k].StartByte)
			at(&c.Symbols[k].EndByte)
		}
		for k := range c.Bindings {
			at(&c.Bindings[k].Byte)
			if c.Bindings[k].End != 0 {
				at(&c.Bindings[k].End)
			}
		}
		for k := range c.Calls {
			at(&c.Calls[k].Byte)
		}
	}
	for i := range f.Symbols {
		s := f.Symbols[i]
		if s.EndByte > s.StartByte+1 {
			edit("growing the body of "+s.Qual, func(c *lang.FileFacts) {
				grow(c, s.EndByte-1)
				touch(c, i)
			})
		}
		if !hasChild[i] {
			edit("renaming "+s.Qual, func(c *lang.FileFacts) {
				n := &c.Symbols[i]
				n.Name += "Renamed"
				n.Qual += "Renamed"
				touch(c, i)
			})
		}
		if s.Type != "" || s.Value != nil || len(s.Returns) > 0 || len(s.Params) > 0 {
			edit("untyping "+s.Qual, func(c *lang.FileFacts) {
				n := &c.Symbols[i]
				n.Type, n.Value, n.Returns = "", nil, nil
				n.Params = nil
				touch(c, i)
			})
		}
		if len(s.Bases) > 0 {
			edit("dropping the supertypes of "+s.Qual, func(c *lang.FileFacts) {
				c.Symbols[i].Bases = nil
				touch(c, i)
			})
		}
	}
	for i := range f.Bindings {
		b := f.Bindings[i]
		if b.Type == "" && b.Value == nil {
			continue
		}
		edit(fmt.Sprintf("dropping the value of binding %s (#%d)", b.Name, i), func(c *lang.FileFacts) {
			c.Bindings[i].Type, c.Bindings[i].Value = "", nil
			touch(c, b.Scope)
		})
		// Another binding of the name in the same scope: moved after this
		// one, it is the one a use after both sees.
		for j := range f.Bindings {
			o := f.Bindings[j]
			if j == i || o.Scope != b.Scope || o.Name != b.Name || o.Field != b.Field || o.Byte >= b.Byte || b.End != 0 || o.End != 0 {
				continue
			}
			edit(fmt.Sprintf("moving binding %s (#%d) after #%d", o.Name, j, i), func(c *lang.FileFacts) {
				c.Bindings[j].Byte = b.Byte + 1
				touch(c, b.Scope)
			})
			break
		}
	}
	return out
}
