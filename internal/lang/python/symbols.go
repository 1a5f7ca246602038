package python

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Reading symbols alone, for the history. A Python file's symbols come
// from three kinds of nodes only: function and class definitions, and
// assignments (module variables, class attributes, `self.x = ...`
// instance attributes). In a tree without syntax errors those nodes sit
// among statements: a definition is a statement of the module or of a
// block, and an assignment is the child of an expression statement or the
// right side of another assignment. So instead of running the queries,
// which visit every node of every expression, ExtractSymbols walks the
// statements and the nodes that hold blocks, and enters other nodes only
// when they contain a syntax error (where the queries would still find
// definitions and assignments, at any depth).

// ExtractSymbols reads the symbols of a tree of src alone: no calls,
// bindings, references, imports or values. The history maps changed
// lines onto symbols and needs nothing else.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	x := newExtraction(path, src)
	x.symbolsOnly = true
	defs, assigns := e.Q.statements.declarations(tree.RootNode())
	x.addDeclarations(defs, assigns)
	return x.facts, nil
}

// addDeclarations adds the symbols of the definitions and assignments,
// given in document order, and puts them in their final order.
func (x *extraction) addDeclarations(defs []defNode, assigns []ts.Node) {
	x.addDefs(defs)
	x.scopes = newScopeIndex(x.facts.Symbols, x.info)
	for i := range assigns {
		x.addAssignment(&assigns[i])
	}
	x.reorder()
	x.scopes = newScopeIndex(x.facts.Symbols, x.info)
}

// statementKinds are the kind ids of the nodes that may hold definitions
// or assignments in a tree without syntax errors, and of those nodes.
type statementKinds struct {
	enter                   map[uint16]bool
	function, class, assign map[uint16]bool
}

// newStatementKinds lists the ids of the kinds by name: an alias (the
// body of a match statement is a block) has an id of its own.
func newStatementKinds(l *ts.Language) *statementKinds {
	k := &statementKinds{enter: map[uint16]bool{}, function: map[uint16]bool{}, class: map[uint16]bool{}, assign: map[uint16]bool{}}
	enter := map[string]bool{
		"module": true, "block": true, "expression_statement": true, "assignment": true, "augmented_assignment": true,
		"decorated_definition": true, "function_definition": true, "class_definition": true,
		"if_statement": true, "elif_clause": true, "else_clause": true, "for_statement": true, "while_statement": true,
		"try_statement": true, "except_clause": true, "finally_clause": true, "with_statement": true,
		"match_statement": true, "case_clause": true,
	}
	for id := uint16(0); uint32(id) < l.NodeKindCount(); id++ {
		if !l.NodeKindIsNamed(id) {
			continue
		}
		name := l.NodeKindForId(id)
		switch name {
		case "function_definition":
			k.function[id] = true
		case "class_definition":
			k.class[id] = true
		case "assignment":
			k.assign[id] = true
		}
		if enter[name] {
			k.enter[id] = true
		}
	}
	return k
}

// declarations returns the definitions and assignments below root in
// document order (a walk in pre-order visits them by their start): the nodes defs.scm captures with @function, @class and
// @assign.
func (k *statementKinds) declarations(root *ts.Node) (defs []defNode, assigns []ts.Node) {
	c := root.Walk()
	defer c.Close()
	for {
		n := c.Node()
		id := n.KindId()
		switch {
		case k.function[id], k.class[id]:
			name, body := n.ChildByFieldName("name"), n.ChildByFieldName("body")
			if name != nil && name.Kind() == "identifier" && body != nil && body.Kind() == "block" {
				defs = append(defs, defNode{node: *n, body: *body, class: k.class[id]})
			}
		case k.assign[id]:
			assigns = append(assigns, *n)
		}
		if (k.enter[id] || n.HasError()) && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return defs, assigns
			}
		}
	}
}
