package c

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves C (includes.go, lookup.go).
type rules struct{}

// Features: a call that Lookup cannot resolve is dropped, never guessed
// by name (Lookup already links the one definition of a name); a local
// declared in a block is visible from its declaration on.
func (rules) Features() lang.Features {
	return lang.Features{NoNameOnly: true, OrderedBindings: true}
}

// ConfigNames: the compilation databases give the include directories.
func (rules) ConfigNames() []string { return []string{"compile_commands.json"} }

// IsBuiltin: C has no builtin callables beyond what headers declare.
func (rules) IsBuiltin(string) bool { return false }

// ParseType: C types are not followed (no methods hang off them).
func (rules) ParseType(string) lang.TypeExpr { return lang.TypeExpr{} }

// Link: C has no subtyping.
func (rules) Link(*lang.Program, *graph.Graph) {}
