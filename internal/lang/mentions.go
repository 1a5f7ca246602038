package lang

import (
	"encoding/binary"
	"slices"
	"strings"
)

// The names a file mentions, hashed. Affected asks of every file the edit
// did not change whether its facts mention a name in the set it found
// (affectedSet.mentionsFile): on the Go standard library that decoded
// every file's calls, which the extraction cache leaves encoded, and read
// them, 0.5 s of CPU of each re-index. The encoded facts therefore end
// with the hashes of every name that question looks up (eachMention, each
// name with its identifier runs, folded as the language folds them),
// sorted, and a file read back from the cache is answered from them: no
// name in the set has a hash in the file's list. A hash shared by two
// names can only make a file count as mentioning a name it does not,
// which resolves it again for nothing: a file's edges do not depend on
// which files are resolved with it (memo.go).

// eachMention calls fn with each string of f's facts that mentionsFile
// looks up, until fn returns true; it reports whether one did. The calls
// must be loaded.
func eachMention(f *FileFacts, fn func(string) bool) bool {
	for i := range f.Calls {
		c := &f.Calls[i]
		if exprMentions(c.Callee, fn) {
			return true
		}
		for _, e := range c.ArgExprs {
			if exprMentions(e, fn) {
				return true
			}
		}
	}
	for i := range f.Refs {
		if exprMentions(f.Refs[i].Expr, fn) {
			return true
		}
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		if fn(b.Type) || exprMentions(b.Value, fn) {
			return true
		}
	}
	anyOf := func(ss []string) bool {
		for _, s := range ss {
			if fn(s) {
				return true
			}
		}
		return false
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if fn(s.Type) || exprMentions(s.Value, fn) || fn(s.Receiver) || opensScope(s) && fn(s.Name) ||
			anyOf(s.Returns) || anyOf(s.Decorators) {
			return true
		}
		for _, p := range s.Params {
			if fn(p.Type) || exprMentions(p.Default, fn) {
				return true
			}
		}
		for _, p := range s.TypeParams {
			if fn(p.Type) {
				return true
			}
		}
		for _, b := range s.Bases {
			if fn(b.Type) {
				return true
			}
		}
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		if fn(im.Path) || fn(im.Name) || fn(im.Alias) {
			return true
		}
	}
	for i := range f.Exports {
		e := &f.Exports[i]
		if fn(e.Name) || fn(e.Local) || exprMentions(e.Value, fn) {
			return true
		}
	}
	return false
}

// exprMentions calls fn with the names of e, the expressions it is applied
// to and their arguments, as affectedSet.hasExpr looks them up.
func exprMentions(e *Expr, fn func(string) bool) bool {
	for ; e != nil; e = e.X {
		if fn(e.Name) {
			return true
		}
		for _, arg := range e.Args {
			if exprMentions(arg, fn) {
				return true
			}
		}
	}
	return false
}

// foldsCase reports whether a language's names are compared ignoring case
// (affectedSet.fold).
func foldsCase(language string) bool { return language == "php" }

// nameHash is the 32-bit FNV-1a hash of a name as the set keeps it.
func nameHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// mentionHashes returns the sorted, distinct hashes of the names f's facts
// mention (eachMention), each with its identifier runs, folded when the
// language folds case: what affectedSet.has would look up. The calls must
// be loaded.
func mentionHashes(f *FileFacts) []uint32 {
	fold := foldsCase(f.Language)
	var hs []uint32
	put := func(s string) {
		if fold {
			s = strings.ToLower(s)
		}
		hs = append(hs, nameHash(s))
	}
	eachMention(f, func(s string) bool {
		if s == "" {
			return false
		}
		put(s)
		eachRun(s, put)
		return false
	})
	slices.Sort(hs)
	return slices.Compact(hs)
}

// mentionsHashed reports whether a name of the set has its hash in
// mentions, the little-endian hashes of a file's names in increasing order
// (mentionHashes): each of the set's hashes is looked up in it, or the
// two lists are walked together when the set is the longer one.
func (a *affectedSet) mentionsHashed(mentions []byte) bool {
	n := len(mentions) / 4
	if n == 0 {
		return false
	}
	names := a.nameHashes()
	at := func(i int) uint32 { return binary.LittleEndian.Uint32(mentions[4*i:]) }
	if len(names) < n/8 {
		for _, h := range names {
			lo, hi := 0, n
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if at(m) < h {
					lo = m + 1
				} else {
					hi = m
				}
			}
			if lo < n && at(lo) == h {
				return true
			}
		}
		return false
	}
	i, j := 0, 0
	for i < len(names) && j < n {
		switch v := at(j); {
		case names[i] == v:
			return true
		case names[i] < v:
			i++
		default:
			j++
		}
	}
	return false
}

// nameHashes are the hashes of the set's names, sorted; made again when
// names were added since.
func (a *affectedSet) nameHashes() []uint32 {
	if a.hashed == nil || a.hashedOf != len(a.names) {
		a.hashed = a.hashed[:0]
		for k := range a.names {
			a.hashed = append(a.hashed, nameHash(k))
		}
		slices.Sort(a.hashed)
		a.hashedOf = len(a.names)
	}
	return a.hashed
}
