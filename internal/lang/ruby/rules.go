package ruby

import (
	"strings"
	"unicode"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Ruby (loading.go, and Lookup here).
type rules struct{}

// Features: methods are found along the ancestors (included modules
// before the superclass); a class without initialize runs its
// superclass's; overrides need not repeat the parameters; a call Lookup
// cannot resolve is dropped, never guessed by name (an untyped receiver
// in Ruby is the rule, not the exception).
func (rules) Features() lang.Features {
	return lang.Features{LinearMRO: true, InheritedConstructors: true, LooseArity: true, NoNameOnly: true, OrderedBindings: true}
}

// ConfigNames: loading needs no configuration file.
func (rules) ConfigNames() []string { return nil }

// IsBuiltin: Kernel's methods are Ruby's, even where a repository file
// defines one of the name at its top level (a spec's own `puts`).
func (rules) IsBuiltin(name string) bool { return kernel[name] }

var kernel = map[string]bool{
	"puts": true, "print": true, "p": true, "pp": true, "raise": true, "fail": true,
	"format": true, "sprintf": true, "printf": true, "loop": true, "lambda": true, "proc": true,
	"require": true, "require_relative": true, "load": true, "catch": true, "throw": true,
	"exit": true, "abort": true, "sleep": true, "rand": true, "gets": true, "warn": true,
	"block_given?": true, "binding": true, "caller": true, "freeze": true, "frozen?": true,
	"Integer": true, "Float": true, "String": true, "Array": true, "Hash": true,
}

// ParseType reads a constant path written A.B (the extractor turns `::`
// into '.').
func (rules) ParseType(text string) lang.TypeExpr {
	if text == "" {
		return lang.TypeExpr{}
	}
	return lang.TypeExpr{Path: strings.Split(text, ".")}
}

// Link: subtyping is all written (superclass, include, prepend).
func (rules) Link(*lang.Program, *graph.Graph) {}

// Lookup resolves a name that is no local. A lower-case name is a method
// call on self: the enclosing class's method along its ancestors, else a
// method defined at file level (Object's private methods) in the file or
// one it loads. A constant is
// looked up lexically: nested in the enclosing classes and modules from
// the innermost out, then at top level. Among several definitions, the
// file's own wins, then one in a file it loads; a name defined once in
// the repository is that definition; a class reopened in several files
// is its first definition.
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	st := stateOf(f)
	if st == nil || name == "" {
		return lang.None(), ""
	}
	if top, ok := strings.CutPrefix(name, "::"); ok {
		return st.prefer(p, f, st.byQual[top])
	}
	if !unicode.IsUpper([]rune(name)[0]) {
		if c.TypesOnly() {
			return lang.None(), ""
		}
		if t := p.EnclosingType(f, c.Scope); t != lang.NoSym {
			if ids, _ := p.FindMember(t, name); len(ids) > 0 {
				return lang.SymsValue(ids), graph.ReasonSelfReceiver
			}
		}
		var fns []lang.SymID
		for _, id := range p.SymbolsNamed(name) {
			if s := p.Sym(id); s.Kind == graph.KindFunction && s.Parent < 0 {
				fns = append(fns, id)
			}
		}
		if kernel[name] {
			return lang.None(), ""
		}
		return st.preferLoaded(p, f, fns)
	}
	// Lexical nesting: A::B's body sees A's constants.
	for scope := c.Scope; scope >= 0; scope = f.Facts.Symbols[scope].Parent {
		s := &f.Facts.Symbols[scope]
		if !s.Kind.IsType() {
			continue
		}
		for q := s.Qual; q != ""; q = outerOf(q) {
			if ids := st.byQual[q+"."+name]; len(ids) > 0 {
				return st.prefer(p, f, ids)
			}
		}
	}
	return st.prefer(p, f, st.byQual[name])
}

func outerOf(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[:i]
	}
	return ""
}

// preferLoaded chooses among the file-level functions of one name: the
// file's own, else one in a file it loads. A function defined in a file
// nothing loads is not callable from here.
func (st *state) preferLoaded(p *lang.Program, f *lang.File, ids []lang.SymID) (lang.Value, graph.Reason) {
	for _, id := range ids {
		if p.Sym(id).File == f {
			return lang.SymValue(id), graph.ReasonSameFile
		}
	}
	for _, id := range ids {
		if st.loads[f][p.Sym(id).File] {
			return lang.SymValue(id), graph.ReasonImportResolved
		}
	}
	return lang.None(), ""
}

// prefer chooses among the definitions of one name: the file's own, else
// one in a file it loads, else the only one; of a class or module
// reopened in several files (all with the same qualified name), the first.
func (st *state) prefer(p *lang.Program, f *lang.File, ids []lang.SymID) (lang.Value, graph.Reason) {
	if len(ids) == 0 {
		return lang.None(), ""
	}
	for _, id := range ids {
		if p.Sym(id).File == f {
			return lang.SymValue(id), graph.ReasonSameFile
		}
	}
	for _, id := range ids {
		if st.loads[f][p.Sym(id).File] {
			return lang.SymValue(id), graph.ReasonImportResolved
		}
	}
	if len(ids) == 1 {
		return lang.SymValue(ids[0]), graph.ReasonSamePackage
	}
	first := p.Sym(ids[0])
	for _, id := range ids[1:] {
		if s := p.Sym(id); s.Qual != first.Qual || !s.Kind.IsType() || s.Kind != first.Kind {
			return lang.None(), ""
		}
	}
	return lang.SymValue(ids[0]), graph.ReasonSamePackage
}
