package main

import (
	"go/ast"
	"go/types"
	"log"
	"slices"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// syntaxCheck derives static edges a second way, from the syntax and type
// information alone (no SSA): every call expression whose callee
// typeutil.Callee names as a function or method (interface methods
// included), owned by the enclosing top-level function declaration or by
// the File. Comparing both derivations finds calls SSA drops (unreachable
// code) and mapping mistakes in either.
type syntaxCheck struct {
	x     *callExtractor // of the unit being checked
	edges edgeSet
}

func (c *syntaxCheck) addPackage(x *callExtractor, p *packages.Package) {
	c.x = x
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			caller, ok := Node{}, true
			if fd, isFunc := d.(*ast.FuncDecl); isFunc {
				caller, ok = c.x.declaration(p.TypesInfo.Defs[fd.Name])
			}
			if !ok {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if call, isCall := n.(*ast.CallExpr); isCall {
					c.call(p.TypesInfo, call, caller)
				}
				return true
			})
		}
	}
}

func (c *syntaxCheck) call(info *types.Info, call *ast.CallExpr, caller Node) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return
	}
	target, ok := c.x.declaration(fn.Origin())
	if !ok {
		return
	}
	file, line, ok := c.x.repo.position(call.Pos())
	if !ok {
		return
	}
	if caller.File == "" {
		caller = Node{File: file}
	}
	if err := c.edges.add(Edge{Caller: caller, Callee: target, Kind: kindStatic, Site: Site{File: file, Line: line}}); err != nil {
		log.Print(err)
	}
}

// report logs the static edges found by one derivation and not the other.
func (c *syntaxCheck) report(oracle edgeSet) {
	var onlySyntax, onlyOracle []string
	for e := range c.edges {
		if _, ok := oracle[e]; !ok {
			onlySyntax = append(onlySyntax, e)
		}
	}
	for e := range oracle {
		if _, ok := c.edges[e]; !ok {
			onlyOracle = append(onlyOracle, e)
		}
	}
	slices.Sort(onlySyntax)
	slices.Sort(onlyOracle)
	log.Printf("syntax gives %d static edges; %d not in the oracle, %d oracle static edges not in syntax",
		len(c.edges), len(onlySyntax), len(onlyOracle))
	for i, e := range onlySyntax {
		if i < 10 {
			log.Printf("  only syntax: %s", e)
		}
	}
	for i, e := range onlyOracle {
		if i < 10 {
			log.Printf("  only oracle: %s", e)
		}
	}
}
