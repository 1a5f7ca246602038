package cypher

import (
	"slices"
	"sort"
	"strings"
)

// varType is what the resolver knows about a variable's values.
type varType uint8

const (
	vtAny     varType = iota // from WITH, UNWIND, comprehensions: checked at run time
	vtNode                   // a pattern node
	vtRel                    // a pattern relationship
	vtRelList                // a variable-length relationship: a list of relationships
	vtPath                   // a named path
)

// binding is a variable: its slot in the row and what it holds.
type binding struct {
	name string
	slot int
	typ  varType
}

// scope maps names to bindings. A child scope (comprehension, subquery,
// ORDER BY over a projection) sees its parent's names unless it shadows
// them.
type scope struct {
	vars   map[string]*binding
	order  []string // declaration order
	parent *scope
}

func newScope(parent *scope) *scope {
	return &scope{vars: map[string]*binding{}, parent: parent}
}

func (s *scope) declare(b *binding) {
	if _, ok := s.vars[b.name]; !ok {
		s.order = append(s.order, b.name)
	}
	s.vars[b.name] = b
}

// lookup finds a name and the scope that declares it.
func (s *scope) lookup(name string) (*binding, *scope) {
	for cur := s; cur != nil; cur = cur.parent {
		if b, ok := cur.vars[name]; ok {
			return b, cur
		}
	}
	return nil, nil
}

// isWithin reports whether s is t or one of t's ancestors.
func (s *scope) isAncestorOf(t *scope) bool {
	for cur := t; cur != nil; cur = cur.parent {
		if cur == s {
			return true
		}
	}
	return false
}

// typeOfSlot is what the variable in slot holds, as far as s knows.
func (s *scope) typeOfSlot(slot int) varType {
	for cur := s; cur != nil; cur = cur.parent {
		for _, b := range cur.vars {
			if b.slot == slot {
				return b.typ
			}
		}
	}
	return vtAny
}

// visibleSlots returns the slots of every variable s can see.
func (s *scope) visibleSlots() []int {
	var out []int
	for cur := s; cur != nil; cur = cur.parent {
		for _, b := range cur.vars {
			out = append(out, b.slot)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// userNames returns the names of variables a user wrote, sorted (RETURN *).
func (s *scope) userNames() []string {
	var out []string
	for name := range s.vars {
		if !strings.HasPrefix(name, "#") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// slotSet helpers: sorted, deduplicated slot lists.

func unionSlots(sets ...[]int) []int {
	var out []int
	for _, s := range sets {
		out = append(out, s...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func subsetOf(a []int, bound map[int]bool) bool {
	for _, s := range a {
		if !bound[s] {
			return false
		}
	}
	return true
}

func withoutSlots(a []int, drop ...int) []int {
	var out []int
	for _, s := range a {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}
