package ingest

import (
	"crypto/sha256"
	"maps"
	"slices"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// Resolving only what an edit can affect. A re-index whose extraction
// cache is the one written with the index (Options.Previous.CacheIsIndex) knows each
// changed file's facts before and after the edit, and the index's snapshot
// holds every file's CALLS and REFERENCES edges as resolution gave them.
// lang.Affected names the files whose edges the edit can change; only
// those are resolved again (a file's edges do not depend on which files
// are resolved with it, lang/memo.go), and the others' edges are copied
// from the snapshot, with their call counts from the cache. Everything
// else a program adds (symbols, packages, structure, imports, heritage) is
// added for all files as before: it is cheap, and it is what the affected
// files are resolved against.
//
// Every file is resolved when any of these fails: the index was written
// by this build with this cache, and its snapshot is read; no file of the
// family came or went; the configuration files are the same; Affected
// does not ask for everything (a package clause, an import or an export
// changed, or the change reaches too far); each copied edge's confidence
// is its reason's (the snapshot keeps it as a float32); every unaffected
// file has its counts in the cache. The summary says which applied
// (Stats.FilesResolved, Stats.ResolveAllWhy).

// familyRun is one language family's program and the files of it that
// are resolved.
type familyRun struct {
	rules    lang.Rules
	facts    []*lang.FileFacts
	prog     *lang.Program
	affected map[string]bool // nil: every file
}

// resolution resolves the families, each in full or, when the index's
// resolution can be reused, only its affected files.
type resolution struct {
	opts    *Options
	g       *graph.Graph
	st      *Stats
	next    *ExtractCache
	changed map[string]bool // source files extracted anew
	reuse   string          // why the index's resolution cannot be reused; "" when it can
	removed map[lang.Rules]bool
	// declaring records that Options.Resolving was called.
	declaring bool
}

// configDigest hashes the configuration files the resolvers read, by path
// and content.
func configDigest(config map[string][]byte) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range slices.Sorted(maps.Keys(config)) {
		for _, b := range [][]byte{[]byte(p), config[p]} {
			l := uint64(len(b))
			for i := range n {
				n[i] = byte(l >> (8 * i))
			}
			h.Write(n[:])
			h.Write(b)
		}
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// newResolution decides whether the index's resolution can be reused at
// all: sources are the source files of this run by path.
func newResolution(opts *Options, g *graph.Graph, st *Stats, next *ExtractCache, changed map[string]bool,
	sources map[string]bool, configs [sha256.Size]byte) *resolution {
	r := &resolution{opts: opts, g: g, st: st, next: next, changed: changed, removed: map[lang.Rules]bool{}}
	switch {
	case opts.Previous.Cache == nil || !opts.Previous.CacheIsIndex:
		r.reuse = "the extraction cache is not the index's"
	case opts.Previous.Ahead == nil:
		r.reuse = "the index's snapshot is not read"
	case opts.Previous.Cache.Configs != configs:
		r.reuse = "a configuration file changed"
	}
	if r.reuse != "" {
		return r
	}
	opts.Previous.Cache.paths(func(p string) {
		if !sources[p] {
			if l := lang.ForPath(p); l != nil {
				r.removed[l.Rules()] = true
			}
		}
	})
	return r
}

// family builds the program of one family and adds its declarations, and
// the CALLS and REFERENCES of the files it must resolve (all, or the
// affected ones).
func (r *resolution) family(rules lang.Rules, facts []*lang.FileFacts, config map[string][]byte) *familyRun {
	fr := &familyRun{rules: rules, facts: facts}
	name := facts[0].Language
	// Which files the edit affects is found from the facts alone, on the
	// side, while the program is built and its declarations added (both
	// only read the facts).
	affected := make(chan string, 1)
	go func() {
		why := r.affected(fr)
		timeline.Mark("resolve: %s files affected", name)
		if fr.affected == nil {
			// Every file is resolved: the calls the cache's facts left
			// encoded are decoded here, on the side, rather than file by
			// file as they are resolved.
			for _, f := range facts {
				f.LoadCalls()
			}
			timeline.Mark("resolve: %s calls loaded", name)
		}
		affected <- why
	}()
	fr.prog = lang.NewProgram(rules, facts, config)
	timeline.Mark("resolve: %s program", name)
	if r.opts.Resolving != nil && !r.declaring {
		r.declaring = true
		r.opts.Resolving()
	}
	fr.prog.AddDeclarations(r.g)
	timeline.Mark("resolve: %s declarations", name)
	if why := <-affected; why != "" && r.st.ResolveAllWhy == "" && r.opts.Previous.Cache != nil && r.opts.Previous.CacheIsIndex {
		r.st.ResolveAllWhy = why
	}
	keep := func(p string) bool { return fr.affected == nil || fr.affected[p] }
	r.resolveFiles(fr, keep)
	timeline.Mark("resolve: %s files resolved", name)
	if fr.affected == nil {
		fr.prog = nil // done with: finish needs only the partial runs' programs
	}
	return fr
}

// affected sets fr.affected when only some files need resolving, or says
// why all do.
func (r *resolution) affected(fr *familyRun) string {
	if r.reuse != "" {
		return r.reuse
	}
	if r.removed[fr.rules] {
		return "files were added or removed"
	}
	var changes []lang.FileChange
	for _, f := range fr.facts {
		if !r.changed[f.Path] {
			continue
		}
		old := r.opts.Previous.Cache.prior(f.Path)
		if old == nil {
			return "the extraction cache has no earlier facts of " + f.Path
		}
		changes = append(changes, lang.FileChange{Old: old, New: f})
	}
	aff, why := lang.Affected(fr.facts, changes)
	if why != "" {
		return why
	}
	for _, f := range fr.facts {
		if !aff[f.Path] {
			if _, ok := r.opts.Previous.Cache.resolved(f.Path); !ok {
				return "the extraction cache has no call counts for " + f.Path
			}
		}
	}
	fr.affected = aff
	return ""
}

func (r *resolution) resolveFiles(fr *familyRun, keep func(string) bool) {
	rs := fr.prog.ResolveFiles(r.g, keep, func(path string, st lang.ResolveStats) {
		r.st.FilesResolved++
		if r.next != nil {
			r.next.setResolved(path, st)
		}
	})
	r.st.Resolve.Add(rs)
}

// finish copies the index's CALLS and REFERENCES edges of the files the
// families did not resolve, with their counts; when that cannot be done
// exactly, it resolves them.
func (r *resolution) finish(runs []*familyRun) {
	var partial []*familyRun
	unresolved := map[string]bool{}
	for _, fr := range runs {
		if fr.affected == nil {
			continue
		}
		partial = append(partial, fr)
		for _, f := range fr.facts {
			if !fr.affected[f.Path] {
				unresolved[f.Path] = true
			}
		}
	}
	if len(partial) == 0 {
		return
	}
	// Every node is in the graph now (resolution adds edges only): the
	// nodes are sorted, which enrichment would do first, while the
	// index's edges are read (60 ms of each on the Go standard library).
	sorted := make(chan struct{})
	go func() {
		defer close(sorted)
		r.g.Nodes()
	}()
	var edges []graph.Edge
	var ends [][2]int32
	why := ""
	a := r.opts.Previous.Ahead()
	if a == nil {
		why = "the index's snapshot could not be read"
	} else {
		edges, ends, why = a.ResolvedEdges(func(p string) bool { return unresolved[p] })
	}
	<-sorted
	if why == "" {
		// None of them has the key of an edge resolution added: their
		// sources are in other files. Their ends are placed among the
		// graph's nodes by the snapshot's (which sorts as the graph
		// does), rather than looked up by id when the edges are sorted.
		if at := a.Renumber(r.g.Nodes()); at != nil {
			for i, e := range ends {
				ends[i] = [2]int32{at[e[0]], at[e[1]]}
			}
			r.g.AppendNewEdgesAt(edges, ends)
		} else {
			r.g.AppendNewEdges(edges)
		}
	}
	if why != "" {
		r.st.ResolveAllWhy = why
		for _, fr := range partial {
			r.resolveFiles(fr, func(p string) bool { return !fr.affected[p] })
		}
		return
	}
	for p := range unresolved {
		st, _ := r.opts.Previous.Cache.resolved(p)
		r.st.Resolve.Add(st)
		if r.next != nil {
			r.next.setResolved(p, st)
		}
	}
}
