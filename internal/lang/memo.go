package lang

// Memo tables and order independence.
//
// Resolving a file's calls fills memo tables (the type a variable holds, what
// a function returns, a type's members, ...) that later files reuse. A value
// computed while a recursion guard cut a cycle short, or that read such a
// value, depends on what was in flight when it was computed: caching it for
// every file would make a file's edges depend on which files were resolved
// before it. So, once the program is linked (Program.Resolve), such a value
// is kept only for the file being resolved, and every other value, which is
// the same whichever file asks first, is kept for all.
//
// As a consequence, the CALLS and REFERENCES edges of a file depend only on
// the program and on that file: resolving any subset of the files, in any
// order, gives each of them the edges a full resolution gives it. Memoized
// computations must therefore not depend on their caller beyond the key:
// they start from a fresh Ctx (evaluation depth 0).

// Memo caches values of type V by key K for one program. Use Cached, then
// Enter and Leave around the computation; a computation that needs its own
// result again (Enter refuses) counts as cut.
type Memo[K comparable, V any] struct {
	vals map[K]memoEntry[V]
	busy map[K]bool
}

type memoEntry[V any] struct {
	v V
	// file is 0 for a value kept for every file, else the resolution
	// round (Program.round) it is valid in.
	file uint32
}

// Cached returns the value cached for k. A value kept for the current file
// only counts as cut for whoever reads it.
func (m *Memo[K, V]) Cached(p *Program, k K) (V, bool) {
	if e, ok := m.vals[k]; ok {
		if e.file == 0 {
			return e.v, true
		}
		if e.file == p.round {
			p.cuts++
			return e.v, true
		}
	}
	var zero V
	return zero, false
}

// Enter marks k as being computed and returns a mark for Leave; ok is false
// when k is already being computed (a cycle), which counts as cut.
func (m *Memo[K, V]) Enter(p *Program, k K) (mark uint64, ok bool) {
	if m.busy[k] {
		p.cuts++
		return 0, false
	}
	if m.busy == nil {
		m.busy = map[K]bool{}
	}
	m.busy[k] = true
	return p.cuts, true
}

// Leave ends the computation of k with value v; store false only clears the
// mark (for values not to be cached yet).
func (m *Memo[K, V]) Leave(p *Program, k K, mark uint64, v V, store bool) {
	delete(m.busy, k)
	if !store {
		return
	}
	if m.vals == nil {
		m.vals = map[K]memoEntry[V]{}
	}
	file := uint32(0)
	if p.round != 0 && p.cuts != mark {
		file = p.round
	}
	m.vals[k] = memoEntry[V]{v: v, file: file}
}

// Get returns the value of k, computing it with compute when not cached;
// onCycle is the value when k is needed while being computed.
func (m *Memo[K, V]) Get(p *Program, k K, onCycle V, compute func() V) V {
	if v, ok := m.Cached(p, k); ok {
		return v
	}
	mark, ok := m.Enter(p, k)
	if !ok {
		return onCycle
	}
	v := compute()
	m.Leave(p, k, mark, v, true)
	return v
}

// Cut records that a recursion guard outside a Memo (a walk's own
// in-progress set that spans calls) stopped a computation short: values
// computed around it are then kept for the current file only.
func (p *Program) Cut() { p.cuts++ }
