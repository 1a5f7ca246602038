package ruby

import (
	"path"
	"sort"
	"strings"
	"unicode"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// How Ruby files find each other. `require_relative "x"` loads x.rb next
// to the requiring file; `require "x"` loads x.rb from the load path,
// which here is every lib/ directory (a gem's gemspec puts its own on
// it; a repository of several gems has one each) then the repository
// root. An application autoloaded the Zeitwerk way
// needs no require at all: the constant Foo::BarBaz is the file
// foo/bar_baz.rb under one of the autoload roots, so a file that names the
// constant loads that file. Each loaded file is an IMPORTS edge, and the
// files a file loads are the ones its constant and function lookups
// prefer when a name is defined in several places.

// loadPathOf are the directories `require` searches, in order: every
// directory named lib (each gem of a repository has its own), then the
// repository root.
func loadPathOf(p *lang.Program) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range p.Files {
		d := f.Facts.Path
		for {
			i := strings.LastIndex(d, "/lib/")
			if i < 0 {
				break
			}
			d = d[:i]
			if !seen[d+"/lib"] {
				seen[d+"/lib"] = true
				dirs = append(dirs, d+"/lib")
			}
		}
		if strings.HasPrefix(f.Facts.Path, "lib/") && !seen["lib"] {
			seen["lib"] = true
			dirs = append(dirs, "lib")
		}
	}
	sort.Strings(dirs)
	return append(dirs, "")
}

// autoloadRoots are the directories Zeitwerk (Rails) maps constants to.
var autoloadRoots = []string{"app/models", "app/controllers", "app/helpers", "app/jobs", "app/services", "lib"}

// state is what the rules know of one program: the constants by
// qualified name and the files each file loads.
type state struct {
	byQual map[string][]lang.SymID
	loads  map[*lang.File]map[*lang.File]bool
}

func stateOf(f *lang.File) *state {
	if f.Module == nil {
		return nil
	}
	st, _ := f.Module.Data.(*state)
	return st
}

// Organize makes each file its own module, indexes the classes, modules
// and constants by qualified name (attaching `class A::B` written at file
// level to A), and resolves what each file loads.
func (rules) Organize(p *lang.Program) {
	st := &state{byQual: map[string][]lang.SymID{}, loads: map[*lang.File]map[*lang.File]bool{}}
	for _, f := range p.Files {
		m := p.Module(f.Facts.Path, path.Base(f.Facts.Path), lang.Dir(f.Facts.Path), false)
		m.Data = st
		p.AddFile(m, f)
	}
	for i := range p.Syms {
		s := &p.Syms[i]
		if s.Kind.IsType() || s.Kind == graph.KindConst {
			st.byQual[s.Qual] = append(st.byQual[s.Qual], lang.SymID(i))
		}
	}
	// `class A::B` at file level (or inside another body) is a member of A.
	for i := range p.Syms {
		s := &p.Syms[i]
		if !s.Kind.IsType() || !strings.Contains(s.Qual, ".") {
			continue
		}
		outer := s.Qual[:strings.LastIndexByte(s.Qual, '.')]
		if s.Parent >= 0 && s.File.Facts.Symbols[s.Parent].Qual == outer {
			continue
		}
		if ids := st.byQual[outer]; len(ids) > 0 {
			p.AddMember(ids[0], lang.SymID(i))
		}
	}
	joinReopened(p, st)
	loadPath := loadPathOf(p)
	for _, f := range p.Files {
		seen := map[*lang.File]bool{}
		add := func(t *lang.File, line int) {
			if t == nil || t == f || seen[t] {
				return
			}
			seen[t] = true
			f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: graph.FileID(t.Facts.Path), Line: line})
		}
		for _, imp := range f.Facts.Imports {
			add(required(p, f, imp.Path, loadPath), imp.Line)
		}
		for _, ref := range constantRefs(f.Facts) {
			add(autoloadedWithin(p, f, ref), ref.line)
		}
		st.loads[f] = seen
	}
}

// joinReopened makes a class or module reopened in several places (`class
// String` in two files, a Rails concern completing a model) one type for
// lookups: each declaration finds the members of the others. Each member
// keeps its own declaration as owner (HAS_METHOD).
func joinReopened(p *lang.Program, st *state) {
	quals := make([]string, 0, len(st.byQual))
	for q := range st.byQual {
		quals = append(quals, q)
	}
	sort.Strings(quals)
	for _, q := range quals {
		var decls []lang.SymID
		for _, id := range st.byQual[q] {
			if p.Sym(id).Kind.IsType() {
				decls = append(decls, id)
			}
		}
		if len(decls) < 2 {
			continue
		}
		p.JoinDeclarations(decls)
	}
}

// required finds the file a require or require_relative names.
func required(p *lang.Program, f *lang.File, written string, loadPath []string) *lang.File {
	name := written
	if !strings.HasSuffix(name, ".rb") {
		name += ".rb"
	}
	if strings.HasPrefix(written, "./") {
		return p.File(cleanJoin(lang.Dir(f.Facts.Path), name))
	}
	for _, d := range loadPath {
		if t := p.File(cleanJoin(d, name)); t != nil {
			return t
		}
	}
	return nil
}

func cleanJoin(dir, name string) string {
	return strings.TrimPrefix(path.Clean(path.Join(dir, name)), "./")
}

// autoloadedWithin finds the file of a constant as Ruby resolves the
// name: nested in the namespaces around the reference, innermost first
// (`TaxRate` inside Billing::Invoice is Billing::TaxRate when
// billing/tax_rate.rb exists), then as written, or the written path's
// longest prefix that has a file (Foo::Bar may be defined in foo.rb).
func autoloadedWithin(p *lang.Program, f *lang.File, ref constantRef) *lang.File {
	if top, ok := strings.CutPrefix(ref.path[0], "::"); ok {
		ref.path = append([]string{top}, ref.path[1:]...)
		ref.within = ""
	}
	for q := ref.within; q != ""; q = outerOf(q) {
		if t := autoloaded(p, append(strings.Split(q, "."), ref.path...)); t != nil && t != f {
			return t
		}
	}
	for n := len(ref.path); n > 0; n-- {
		if t := autoloaded(p, ref.path[:n]); t != nil {
			return t
		}
	}
	return nil
}

// autoloaded finds the file an autoload root gives constant path.
func autoloaded(p *lang.Program, constPath []string) *lang.File {
	parts := make([]string, len(constPath))
	for i, c := range constPath {
		parts[i] = underscore(c)
	}
	rel := strings.Join(parts, "/") + ".rb"
	for _, root := range autoloadRoots {
		if t := p.File(root + "/" + rel); t != nil {
			return t
		}
	}
	return nil
}

// underscore is Zeitwerk's file name of a constant: BarBaz is bar_baz,
// HTMLParser html_parser.
func underscore(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

type constantRef struct {
	path   []string
	line   int
	within string // qualified name of the innermost enclosing class or module
}

// constantRefs are the constant paths a file names: constructed classes,
// receivers of calls, superclasses and mixins, sorted by line.
func constantRefs(ff *lang.FileFacts) []constantRef {
	ff.LoadCalls()
	var out []constantRef
	for _, c := range ff.Calls {
		for e := c.Callee; e != nil; e = e.X {
			if e.Kind == lang.ExprNew {
				out = append(out, constantRef{strings.Split(e.Name, "."), c.Line, namespaceOf(ff, c.Scope)})
				break
			}
			if p := constantPathOf(e); p != nil {
				out = append(out, constantRef{p, c.Line, namespaceOf(ff, c.Scope)})
				break
			}
		}
	}
	for i, s := range ff.Symbols {
		for _, b := range s.Bases {
			out = append(out, constantRef{strings.Split(b.Type, "."), s.StartLine, namespaceOf(ff, i)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// namespaceOf is the qualified name of the class or module around symbol
// i (i itself when it is one), "" at file level.
func namespaceOf(ff *lang.FileFacts, i int) string {
	for ; i >= 0; i = ff.Symbols[i].Parent {
		if ff.Symbols[i].Kind.IsType() {
			return ff.Symbols[i].Qual
		}
	}
	return ""
}

// constantPathOf reads `A` or `A::B` as written: idents and members of
// capitalised names.
func constantPathOf(e *lang.Expr) []string {
	if e == nil || e.Name == "" || !unicode.IsUpper([]rune(strings.TrimPrefix(e.Name, "::"))[0]) {
		return nil
	}
	switch e.Kind {
	case lang.ExprIdent:
		return []string{e.Name}
	case lang.ExprMember:
		if in := constantPathOf(e.X); in != nil {
			return append(in, e.Name)
		}
	}
	return nil
}

// BindImports: Organize did the work, as loading needs every file.
func (rules) BindImports(*lang.Program, *lang.File) {}

// Export: a Ruby file exports nothing by name; constants are global.
func (rules) Export(*lang.Program, *lang.Module, string) lang.Value { return lang.None() }
