package typescript

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves TypeScript and JavaScript together: every file is a
// module whose names come from its own declarations and its imports;
// imports resolve through relative paths with extension probing,
// tsconfig/jsconfig baseUrl and paths, and workspace packages; exports
// follow re-export chains. Classes are constructed with `new` only, and a
// class without a constructor runs its base class's. Calls that cannot be
// resolved are dropped: name-only guesses were wrong in about 9 cases out
// of 10 on the npm CLI and on tRPC (untyped receivers are mostly values
// from outside the repository: arrays, streams, library objects).
type rules struct{}

func (rules) Features() lang.Features {
	return lang.Features{InheritedConstructors: true, UnexportedIsPrivate: true, NoNameOnly: true, FollowFunctionVariables: true, LooseArity: true,
		FirstFit: true}
}

// ConfigNames are the files module resolution reads: package.json for
// workspace packages, tsconfig/jsconfig files (any tsconfig*.json, which
// `extends` may name) for baseUrl and paths.
func (rules) ConfigNames() []string {
	return []string{"package.json", "tsconfig*.json", "jsconfig*.json"}
}

func (rules) IsBuiltin(name string) bool { return isGlobal(name) }

// Link adds nothing: TypeScript subtyping that matters for dispatch is
// declared (extends, implements).
func (rules) Link(*lang.Program, *graph.Graph) {}

// Lookup resolves a name at file level: the file's own declarations, then
// its imports, then the environment's globals (external).
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	if c.TypesOnly() {
		if v, ok := typeParameter(p, c, name); ok {
			return v, graph.ReasonSameFile
		}
	}
	if ids := f.Top[name]; len(ids) > 0 {
		if id := pickDeclAt(p, ids, c.TypesOnly(), c.Pos); id != lang.NoSym {
			return lang.SymValue(id), graph.ReasonSameFile
		}
	}
	if info := moduleOf(f); info != nil {
		if v, ok := info.imported(name); ok {
			return v, graph.ReasonImportResolved
		}
	}
	if isGlobal(name) || (c.TypesOnly() && builtinTypes[name]) {
		return lang.External(), ""
	}
	return lang.None(), ""
}

// pickDecl chooses among same-named file-level declarations (a class and
// an interface merged, a const and a type of one name, namespace members):
// declarations outside namespaces first, then types when the name is used
// as a type and values otherwise, a class before an interface it merges
// with.
func pickDecl(p *lang.Program, ids []lang.SymID, typesOnly bool) lang.SymID {
	return pickDeclAt(p, ids, typesOnly, 0)
}

// pickDeclAt is pickDecl for a use at byte pos: among equally good
// declarations (functions of one name declared in several test callbacks),
// the last one that starts before the use.
func pickDeclAt(p *lang.Program, ids []lang.SymID, typesOnly bool, pos uint32) lang.SymID {
	best, bestScore := lang.NoSym, -1
	for _, id := range ids {
		s := p.Sym(id)
		score := 0
		if s.Qual == s.Name {
			score += 8
		}
		isType := s.Kind.IsType()
		valueKind := s.Kind != graph.KindInterface && s.Kind != graph.KindTypeAlias
		if (typesOnly && isType) || (!typesOnly && valueKind) {
			score += 4
		}
		if typesOnly && isType && valueKind {
			score += 2 // a class merged with an interface: the class constructs
		}
		if !s.Abstract {
			score++
		}
		switch {
		case score > bestScore:
			best, bestScore = id, score
		case score == bestScore && s.StartByte <= pos && p.Sym(best).StartByte < s.StartByte:
			best = id
		}
	}
	return best
}

// typeParameter resolves a generic type parameter of an enclosing
// declaration to its bound (`T extends Base` is used as Base); a parameter
// without a bound is unknown.
func typeParameter(p *lang.Program, c *lang.Ctx, name string) (lang.Value, bool) {
	f := c.File
	for scope := c.Scope; scope >= 0; scope = f.Facts.Symbols[scope].Parent {
		s := &f.Facts.Symbols[scope]
		for _, tp := range s.TypeParams {
			if tp.Name != name {
				continue
			}
			info := moduleOf(f)
			key := "typeparam\x00" + s.Qual + "\x00" + name
			if tp.Type == "" || info == nil {
				return lang.None(), true
			}
			if info.busy[key] {
				p.Cut() // bounds that name each other
				return lang.None(), true
			}
			info.busy[key] = true
			v := p.ResolveType(lang.Ctx{File: f, Scope: s.Parent, Pos: s.StartByte}, tp.Type)
			delete(info.busy, key)
			switch {
			case v.Kind == lang.ValInstance && v.Elem == 0:
				return lang.SymValue(v.Sym), true
			case v.Kind == lang.ValExternal:
				return v, true
			}
			return lang.None(), true
		}
	}
	return lang.None(), false
}
