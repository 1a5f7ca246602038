package main

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// invokeSite is an interface-method call (or a method call on a value of
// type-parameter type) waiting for its dispatch targets.
type invokeSite struct {
	caller Node
	site   Site
	method string   // key of the called method
	iface  []string // keys of all methods of the interface
	// generic: the receiver's type is a type parameter (or its interface
	// mentions type parameters). Each instantiation runs the method of
	// its type argument, whose signature has the type parameters
	// substituted, so such sites match methods by name and arity.
	generic bool
}

// callExtractor turns the SSA functions of one load unit into static edges
// and invoke sites. Its rule for static edges is the one of
// golang.org/x/tools/go/callgraph/static: an edge for every call whose
// CallCommon has a StaticCallee; it visits every source function of the
// selected packages (the static call graph starts from package members
// and misses methods of generic types), and keeps only calls written in
// the source, between definitions of the repository.
type callExtractor struct {
	repo    *repository
	edges   edgeSet
	invokes []invokeSite
	starts  map[token.Pos]token.Pos // call instruction position -> start of its call expression
	err     error
}

// indexCallStarts records, for every call expression, where it starts,
// under the position SSA gives its call instruction: the left parenthesis,
// or the go/defer keyword.
func (x *callExtractor) indexCallStarts(files []*ast.File) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				x.starts[n.Lparen] = n.Pos()
			case *ast.GoStmt:
				x.starts[n.Go] = n.Call.Pos()
			case *ast.DeferStmt:
				x.starts[n.Defer] = n.Call.Pos()
			}
			return true
		})
	}
}

// sourceFunctions lists the functions declared in a package's syntax
// (functions, methods, user init functions) and its package initializer.
func sourceFunctions(prog *ssa.Program, p *packages.Package, sp *ssa.Package) []*ssa.Function {
	var fns []*ssa.Function
	if init := sp.Func("init"); init != nil {
		fns = append(fns, init)
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				fns = append(fns, fn)
			}
		}
	}
	return fns
}

// visit walks a function and the function literals nested in it.
func (x *callExtractor) visit(fn *ssa.Function, caller Node, ok bool) {
	if fn.Parent() == nil {
		caller, ok = x.callerOf(fn)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, isCall := instr.(ssa.CallInstruction); isCall {
				x.call(call, caller, ok)
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		x.visit(anon, caller, ok)
	}
}

// callerOf is the node that owns the calls of a top-level function: the
// function itself, or the File for the package initializer (whose calls
// come from package-level variable initializers, each in its own file).
func (x *callExtractor) callerOf(fn *ssa.Function) (Node, bool) {
	if fn.Synthetic == "package initializer" {
		return Node{}, true // File: filled in from each call's site
	}
	if fn.Synthetic != "" {
		return Node{}, false
	}
	return x.declaration(fn.Object())
}

// declaration is the node of a declared object.
func (x *callExtractor) declaration(obj types.Object) (Node, bool) {
	if obj == nil {
		return Node{}, false
	}
	file, line, ok := x.repo.position(obj.Pos())
	if !ok {
		return Node{}, false
	}
	return Node{File: file, Line: line, Name: obj.Name()}, true
}

func (x *callExtractor) call(instr ssa.CallInstruction, caller Node, callerOK bool) {
	if !callerOK {
		return
	}
	start, written := x.starts[instr.Pos()]
	if !written {
		return // synthesized by SSA (range-over-func, init of imports ...)
	}
	file, line, ok := x.repo.position(start)
	if !ok {
		return
	}
	site := Site{File: file, Line: line}
	if caller.File == "" {
		caller = Node{File: file}
	}
	common := instr.Common()
	if common.IsInvoke() {
		x.invoke(common, caller, site)
		return
	}
	callee := common.StaticCallee()
	if callee == nil {
		return // dynamic call of a function value
	}
	if callee.Parent() != nil {
		return // immediately called function literal: not a node
	}
	if origin := callee.Origin(); origin != nil {
		callee = origin
	}
	// Functions of packages built without syntax ("from type information"),
	// wrappers of promoted or pointer methods and interface thunks all
	// carry the object of the method named in the source.
	obj, isFunc := callee.Object().(*types.Func)
	if !isFunc {
		return
	}
	target, ok := x.declaration(obj.Origin())
	if !ok {
		return
	}
	x.add(Edge{Caller: caller, Callee: target, Kind: kindStatic, Site: site})
}

// invoke records the interface method as the static target and keeps the
// site for dispatch.
func (x *callExtractor) invoke(common *ssa.CallCommon, caller Node, site Site) {
	method := common.Method.Origin()
	if target, ok := x.declaration(method); ok {
		x.add(Edge{Caller: caller, Callee: target, Kind: kindStatic, Site: site})
	}
	iface := interfaceOf(common.Value.Type())
	if iface == nil {
		return
	}
	keys := make([]string, 0, iface.NumMethods())
	for i := range iface.NumMethods() {
		keys = append(keys, methodKey(iface.Method(i)))
	}
	generic := isTypeParam(common.Value.Type()) || mentionsTypeParams(iface)
	if generic {
		keys = keys[:0]
		for i := range iface.NumMethods() {
			keys = append(keys, looseKey(iface.Method(i)))
		}
	}
	key := methodKey(common.Method)
	if generic {
		key = looseKey(common.Method)
	}
	x.invokes = append(x.invokes, invokeSite{
		caller: caller, site: site, method: key, iface: keys, generic: generic,
	})
}

func isTypeParam(t types.Type) bool {
	_, ok := t.(*types.TypeParam)
	return ok
}

// mentionsTypeParams reports whether a method of iface has a type
// parameter in its signature (a generic constraint such as Creator[T]).
func mentionsTypeParams(iface *types.Interface) bool {
	for i := range iface.NumMethods() {
		sig := iface.Method(i).Signature()
		for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
			for j := range tup.Len() {
				if containsTypeParam(tup.At(j).Type()) {
					return true
				}
			}
		}
	}
	return false
}

func containsTypeParam(t types.Type) bool {
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return containsTypeParam(t.Elem())
	case *types.Slice:
		return containsTypeParam(t.Elem())
	case *types.Array:
		return containsTypeParam(t.Elem())
	case *types.Map:
		return containsTypeParam(t.Key()) || containsTypeParam(t.Elem())
	case *types.Chan:
		return containsTypeParam(t.Elem())
	case *types.Named:
		for i := range t.TypeArgs().Len() {
			if containsTypeParam(t.TypeArgs().At(i)) {
				return true
			}
		}
	}
	return false
}

// interfaceOf is the interface whose method an invoke-mode call names: the
// receiver's interface type or, for a type parameter, its constraint.
func interfaceOf(t types.Type) *types.Interface {
	if tp, ok := t.(*types.TypeParam); ok {
		t = tp.Constraint()
	}
	iface, _ := t.Underlying().(*types.Interface)
	return iface
}

func (x *callExtractor) add(e Edge) {
	if err := x.edges.add(e); err != nil && x.err == nil {
		x.err = err
	}
}
