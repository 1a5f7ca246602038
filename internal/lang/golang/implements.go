package golang

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Go interfaces are satisfied implicitly. Link computes the method set of
// every named type (own methods plus those promoted through embedded
// fields, pointer receivers included) and of every interface (own methods
// plus embedded interfaces, those of the standard library included), and
// links each type to each non-empty interface whose methods it has with
// the same parameter and result counts. The candidate types of an
// interface are those having its rarest method name, which keeps the
// check near-linear on the standard library. The interfaces of the
// standard library get their implementations the same way (external.go).

type methodShape struct {
	params, results int
	sym             lang.SymID
}

type methodSet map[string]methodShape

// Link adds IMPLEMENTS edges (reason method-set) and records the subtypes
// used for dispatch.
func (rules) Link(p *lang.Program, g *graph.Graph) {
	ms := &methodSets{p: p, sets: map[lang.SymID]methodSet{}, busy: map[lang.SymID]bool{}}
	var ifaces, concrete []lang.SymID
	for i := range p.Syms {
		id := lang.SymID(i)
		switch s := p.Sym(id); s.Kind {
		case graph.KindInterface:
			ifaces = append(ifaces, id)
		case graph.KindStruct, graph.KindTypeAlias:
			concrete = append(concrete, id)
		}
	}
	byMethod := map[string][]lang.SymID{}
	for _, t := range concrete {
		for name := range ms.of(t) {
			byMethod[name] = append(byMethod[name], t)
		}
	}
	for _, iface := range ifaces {
		want := ms.of(iface)
		if len(want) == 0 {
			continue
		}
		rarest := ""
		for name := range want {
			if rarest == "" || len(byMethod[name]) < len(byMethod[rarest]) ||
				(len(byMethod[name]) == len(byMethod[rarest]) && name < rarest) {
				rarest = name
			}
		}
		cands := byMethod[rarest]
		matches := make([]lang.SymID, 0, len(cands))
	candidates:
		for _, t := range cands {
			have := ms.of(t)
			for name, shape := range want {
				h, ok := have[name]
				if !ok || h.params != shape.params || h.results != shape.results {
					continue candidates
				}
			}
			matches = append(matches, t)
		}
		sort.Slice(matches, func(i, j int) bool { return matches[i] < matches[j] })
		for _, t := range matches {
			p.AddSubtype(t, iface)
			g.AddEdge(graph.Edge{Src: p.Sym(t).ID, Dst: p.Sym(iface).ID, Type: graph.EdgeImplements,
				Confidence: graph.ReasonMethodSet.Confidence(), Reason: graph.ReasonMethodSet})
		}
	}
	linkExternal(p, ms, byMethod)
}

type methodSets struct {
	p    *lang.Program
	sets map[lang.SymID]methodSet
	busy map[lang.SymID]bool
}

// of returns the method set of a type; own methods shadow promoted ones,
// and shallower embeddings shadow deeper ones.
func (m *methodSets) of(t lang.SymID) methodSet {
	if set, ok := m.sets[t]; ok {
		return set
	}
	if m.busy[t] {
		return nil // embedding cycle, invalid Go
	}
	m.busy[t] = true
	defer delete(m.busy, t)
	set := methodSet{}
	for name, ids := range m.p.AllMembers(t) {
		for _, id := range ids {
			s := m.p.Sym(id)
			if s.Kind == graph.KindMethod {
				set[name] = methodShape{params: len(s.Params), results: len(s.Returns), sym: id}
				break
			}
		}
	}
	for _, b := range m.p.Bases(t) {
		for name, shape := range m.of(b) {
			if _, ok := set[name]; !ok {
				set[name] = shape
			}
		}
	}
	m.externalMethods(t, set)
	m.sets[t] = set
	return set
}
