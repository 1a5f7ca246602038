package python

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// readRefs records, once per function, each name it reads or writes that may
// be a module-level variable or constant, and each `module.name` it uses.
//
// Only names that can be such a variable are kept: those the file assigns
// at module level or binds with `from m import x`, and `m.x` where m is a
// module the file imports (any name when a wildcard import could bring
// others in). The source is scanned with a small tokenizer instead of a
// query: a query match per identifier cost about a third of the Python
// standard library's extraction time.
func (x *extraction) readRefs() {
	names := map[string]bool{}
	modules := map[string]bool{}
	wildcard := false
	for _, s := range x.facts.Symbols {
		if s.Parent < 0 && (s.Kind == graph.KindVariable || s.Kind == graph.KindConst) {
			names[s.Name] = true
		}
	}
	for _, imp := range x.facts.Imports {
		switch imp.Kind {
		case lang.ImportName:
			if imp.Alias != "" {
				names[imp.Alias] = true
			} else {
				names[imp.Name] = true
			}
			// `from pkg import mod` may bind a module too.
			modules[names2(imp.Alias, imp.Name)] = true
		case lang.ImportModule:
			modules[firstName(imp.Alias, imp.Path)] = true
		case lang.ImportWildcard:
			wildcard = true
		}
	}
	if len(names) == 0 && len(modules) == 0 && !wildcard {
		return
	}
	lines := lang.LineStarts(x.src)
	type refKey struct {
		scope      int
		qual, name string
		write      bool
	}
	seen := map[refKey]bool{}
	callable := func(pos uint32) int {
		s := x.scopes.at(pos)
		if s >= 0 && !x.facts.Symbols[s].Kind.IsCallable() {
			return -1
		}
		return s
	}
	emit := func(off int, qual, name string, write bool) {
		scope := callable(uint32(off))
		if scope < 0 {
			return
		}
		if r, _ := x.receiverAt(scope); r == name || (qual != "" && r == qual) {
			return
		}
		k := refKey{scope, qual, name, write}
		if seen[k] {
			return
		}
		seen[k] = true
		e := &lang.Expr{Kind: lang.ExprIdent, Name: name}
		if qual != "" {
			e = &lang.Expr{Kind: lang.ExprMember, Name: name, X: &lang.Expr{Kind: lang.ExprIdent, Name: qual}}
		}
		line := sort.SearchInts(lines, off+1)
		x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: scope, Expr: e, Line: line, Write: write})
	}
	toks := tokenize(x.src)
	at := func(i int) pyToken {
		if i < 0 || i >= len(toks) {
			return pyToken{}
		}
		return toks[i]
	}
	for i, t := range toks {
		if t.kind != tokName {
			continue
		}
		prev, next := at(i-1), at(i+1)
		if prev.is('.') {
			// attr of `m.attr`: a module attribute when m is a plain name.
			q := at(i - 2)
			if q.kind == tokName && !at(i-3).is('.') && modules[q.text] {
				emit(q.off, q.text, t.text, false)
			}
			continue
		}
		if !names[t.text] && !wildcard {
			continue
		}
		if keywords[t.text] {
			continue
		}
		if next.is('=') && t.depth > 0 {
			continue // a keyword argument or a parameter default's name
		}
		write := t.depth == 0 && (next.is('=') || next.kind == tokAugAssign) && (prev.kind == tokNewline || prev.kind == tokNone)
		emit(t.off, "", t.text, write)
	}
}

func names2(alias, name string) string {
	if alias != "" {
		return alias
	}
	return name
}

// firstName is the name `import a.b.c` binds (a), or the alias.
func firstName(alias, path string) string {
	if alias != "" {
		return alias
	}
	for i := 0; i < len(path); i++ {
		if path[i] == '.' {
			return path[:i]
		}
	}
	return path
}
