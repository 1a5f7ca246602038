package main

import (
	"log"
	"slices"

	"golang.org/x/tools/go/callgraph/static"
	"golang.org/x/tools/go/ssa"
)

// checkStaticCallGraph builds golang.org/x/tools/go/callgraph/static's
// graph of the unit, maps its edges the same way, and reports those the
// oracle lacks: none are expected, since the oracle applies the same
// StaticCallee rule to every source function of the selected packages.
func (x *callExtractor) checkStaticCallGraph(prog *ssa.Program, unit string) {
	cg := static.CallGraph(prog)
	ref := &callExtractor{repo: x.repo, edges: make(edgeSet), starts: x.starts}
	for fn, node := range cg.Nodes {
		if fn == nil {
			continue
		}
		top := fn
		for top.Parent() != nil {
			top = top.Parent()
		}
		caller, ok := ref.callerOf(top)
		for _, e := range node.Out {
			ref.call(e.Site, caller, ok)
		}
	}
	var missing []string
	for e := range ref.edges {
		if _, ok := x.edges[e]; !ok {
			missing = append(missing, e)
		}
	}
	slices.Sort(missing)
	log.Printf("%s: callgraph/static gives %d source edges, %d missing from the oracle", unit, len(ref.edges), len(missing))
	for i, e := range missing {
		if i == 10 {
			break
		}
		log.Printf("  missing: %s", e)
	}
}
