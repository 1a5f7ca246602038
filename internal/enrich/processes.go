package enrich

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// A process is a trace of calls from an entry point: a depth-first walk
// over confident CALLS edges (confidence at least minTraceConfidence, so
// neither name-only guesses nor dispatch to implementations that may not
// run), to callables outside test code, never revisiting a node of the
// current path. At each node the walk follows at most traceBranching
// callees: those that call further first (a flow goes on through them),
// then the most specific: fewest callers in the repository (a logger
// called from everywhere says little about this flow), then in the order
// their first call sites are written. A path ends at
// a node with nowhere further to go or after maxTraceDepth calls. Of the
// paths from one entry, tracesPerEntry are kept: the longest through each
// first callee if longer than minTraceSteps, then the longest others (first found first among equals);
// a trace of fewer than minTraceSteps steps, or
// contained in a longer trace as a contiguous run of steps, is dropped; the
// rest are ranked by their entry's score, then length, and capped at
// MaxProcesses.

const (
	minTraceConfidence = 0.85
	maxTraceDepth      = 10
	traceBranching     = 3
	minTraceSteps      = 3
	tracesPerEntry     = 3
	leavesPerEntry     = 64 // paths explored from one entry at most
)

// trace is one traced path of view nodes.
type trace struct {
	steps []int32
	conf  []float64 // lowest confidence of the calls reaching each step
	score float64   // the entry's score
}

func traceProcesses(ctx context.Context, v *view, opt Options, st *Stats) []trace {
	callers := make([]int, len(v.nodes))
	v.fanIn = callers
	for src, calls := range v.calls {
		if v.test[src] || !v.nodes[src].Kind.IsCallable() {
			continue
		}
		for _, c := range calls {
			// A name-only guess is no evidence that anything calls c.to.
			if c.to != int32(src) && c.reason != graph.ReasonNameOnly {
				callers[c.to]++
			}
		}
	}
	onward := make([]bool, len(v.nodes))
	for i := range v.nodes {
		for _, c := range v.calls[i] {
			if eligible(v, int32(i), c) {
				onward[i] = true
				break
			}
		}
	}
	v.onward = onward
	v.callees = make([][]call, len(v.nodes))
	v.calleesSet = make([]bool, len(v.nodes))
	var all []trace
	for i := range v.nodes {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil
		}
		n := int32(i)
		if !v.nodes[i].Kind.IsCallable() || !v.onward[i] {
			continue
		}
		score, framework := entryScore(v, n, callers[i])
		if score < minEntryScore || callers[i] > 0 && !framework {
			continue
		}
		st.EntryPoints++
		for _, t := range tracesFrom(v, n) {
			t.score = score
			all = append(all, t)
		}
	}
	st.Traces = len(all)
	kept := dropContained(all)
	slices.SortStableFunc(kept, func(a, b trace) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(len(b.steps), len(a.steps)),
			strings.Compare(v.nodes[a.steps[0]].ID, v.nodes[b.steps[0]].ID),
			slices.Compare(a.steps, b.steps))
	})
	if len(kept) > opt.MaxProcesses {
		kept = kept[:opt.MaxProcesses]
	}
	return kept
}

// eligible reports whether a trace may step from n over the call c
// (wherever its path has been).
func eligible(v *view, n int32, c call) bool {
	return c.confidence >= minTraceConfidence && c.to != n && v.nodes[c.to].Kind.IsCallable() && !v.test[c.to]
}

// calleesOf are the callees a trace may step to from n, in the order it
// tries them: those it can go on from first, then by fewest callers, then
// in call site order. They depend on n alone (once fanIn and onward are
// set), and are sorted once per node: a walk skips those on its path.
func calleesOf(v *view, n int32) []call {
	if v.calleesSet[n] {
		return v.callees[n]
	}
	var out []call
	for _, c := range v.calls[n] {
		if eligible(v, n, c) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b call) int {
		return cmp.Or(compareBool(v.onward[b.to], v.onward[a.to]), cmp.Compare(v.fanIn[a.to], v.fanIn[b.to]))
	})
	v.callees[n], v.calleesSet[n] = out, true
	return out
}

// tracesFrom walks from entry and returns its longest traces of at least
// minTraceSteps steps.
func tracesFrom(v *view, entry int32) []trace {
	var found []trace
	path := []int32{entry}
	confs := []float64{1}
	leaves := 0
	var walk func(n int32)
	walk = func(n int32) {
		// The first traceBranching callees not on the path (which is at
		// most maxTraceDepth+1 long: a scan beats a set).
		var buf [traceBranching]call
		next := buf[:0]
		for _, c := range calleesOf(v, n) {
			if len(next) == traceBranching {
				break
			}
			if !slices.Contains(path, c.to) {
				next = append(next, c)
			}
		}
		if len(next) == 0 || len(path) > maxTraceDepth {
			leaves++
			if len(path) >= minTraceSteps {
				found = append(found, trace{steps: slices.Clone(path), conf: slices.Clone(confs)})
			}
			return
		}
		for _, c := range next {
			if leaves >= leavesPerEntry {
				return
			}
			path = append(path, c.to)
			confs = append(confs, min(confs[len(confs)-1], c.confidence))
			walk(c.to)
			path, confs = path[:len(path)-1], confs[:len(confs)-1]
		}
	}
	walk(entry)
	return pickTraces(found)
}

// pickTraces picks an entry's traces to keep of those found.
func pickTraces(found []trace) []trace {
	slices.SortStableFunc(found, func(a, b trace) int { return len(b.steps) - len(a.steps) })
	if len(found) <= tracesPerEntry {
		return found
	}
	// The longest trace through each first callee (unless it is of the
	// minimal length), then the longest of the rest: the entry's flows,
	// not variations of its deepest one.
	var kept []trace
	taken := make([]bool, len(found))
	firsts := map[int32]bool{}
	for i, t := range found {
		if len(kept) < tracesPerEntry && !firsts[t.steps[1]] && len(t.steps) > minTraceSteps {
			firsts[t.steps[1]] = true
			kept = append(kept, t)
			taken[i] = true
		}
	}
	for i, t := range found {
		if len(kept) < tracesPerEntry && !taken[i] {
			kept = append(kept, t)
		}
	}
	slices.SortStableFunc(kept, func(a, b trace) int { return len(b.steps) - len(a.steps) })
	return kept
}

// dropContained removes traces whose steps appear as a contiguous run in a
// longer (or an equal, earlier) trace.
func dropContained(ts []trace) []trace {
	byLen := slices.Clone(ts)
	slices.SortStableFunc(byLen, func(a, b trace) int { return len(b.steps) - len(a.steps) })
	runs := map[string]bool{}
	var kept []trace
	for _, t := range byLen {
		if runs[runKey(t.steps)] {
			continue
		}
		kept = append(kept, t)
		for i := 0; i < len(t.steps); i++ {
			for j := i + minTraceSteps; j <= len(t.steps); j++ {
				runs[runKey(t.steps[i:j])] = true
			}
		}
	}
	return kept
}

func runKey(steps []int32) string {
	b := make([]byte, 0, len(steps)*6)
	for _, s := range steps {
		b = strconv.AppendInt(b, int64(s), 36)
		b = append(b, ',')
	}
	return string(b)
}

// addProcesses adds a Process node per trace, STEP_IN_PROCESS edges from
// each step (Line = the 1-based step) and an ENTRY_POINT_OF edge from the
// entry.
func addProcesses(g *graph.Graph, v *view, ts []trace, cs *communities, flows *graph.Flows) {
	// Entries that share a name (every Go command has a main) are told
	// apart by their folder: "main (cmd/pack) → usage".
	entriesNamed := map[string]map[int32]bool{}
	for _, t := range ts {
		name := symbolName(&v.nodes[t.steps[0]])
		if entriesNamed[name] == nil {
			entriesNamed[name] = map[int32]bool{}
		}
		entriesNamed[name][t.steps[0]] = true
	}
	// Traces that share their entry and terminal are told apart by their
	// first step after the entry ("main → run via parseFlags"), and by a
	// number where that is shared too: a label names one process.
	pairs := map[[2]int32]int{}
	for _, t := range ts {
		pairs[[2]int32{t.steps[0], t.steps[len(t.steps)-1]}]++
	}
	labels := map[string]int{}
	ids := map[string]int{}
	for _, t := range ts {
		entry, terminal := t.steps[0], t.steps[len(t.steps)-1]
		id := "Process:" + v.nodes[entry].ID + " > " + v.nodes[terminal].ID
		if k := ids[id]; k > 0 {
			ids[id] = k + 1
			id += "#" + strconv.Itoa(k+1)
		} else {
			ids[id] = 1
		}
		entryName := symbolName(&v.nodes[entry])
		if len(entriesNamed[entryName]) > 1 {
			entryName += " (" + path.Dir(v.nodes[entry].FilePath) + ")"
		}
		label := entryName + " → " + symbolName(&v.nodes[terminal])
		if pairs[[2]int32{entry, terminal}] > 1 {
			label += " via " + symbolName(&v.nodes[t.steps[1]])
		}
		if k := labels[label]; k > 0 {
			labels[label] = k + 1
			label += " #" + strconv.Itoa(k+1)
		} else {
			labels[label] = 1
		}
		typ := graph.ProcessIntraCommunity
		for _, s := range t.steps {
			if c := cs.of[s]; c < 0 || c != cs.of[entry] {
				typ = graph.ProcessCrossCommunity
				break
			}
		}
		g.AddNode(graph.Node{ID: id, Kind: graph.KindProcess, Name: label, QualifiedName: label,
			Language: v.nodes[entry].Language})
		steps := make([]string, len(t.steps))
		for k, s := range t.steps {
			steps[k] = v.nodes[s].ID
			// A trace never visits a node twice, and process ids are
			// unique: the edges are new.
			g.AddNewEdge(graph.Edge{Src: steps[k], Dst: id, Type: graph.EdgeStepInProcess,
				Confidence: t.conf[k], Reason: graph.ReasonTrace, Line: k + 1})
		}
		g.AddNewEdge(graph.Edge{Src: steps[0], Dst: id, Type: graph.EdgeEntryPointOf,
			Confidence: t.conf[len(t.conf)-1], Reason: graph.ReasonTrace})
		flows.Processes = append(flows.Processes, graph.ProcessFacts{ID: id, Label: label, Type: typ, Steps: steps})
	}
}

// symbolName is the name of a symbol inside its file: "Service.Place",
// "main", without an overload suffix.
func symbolName(n *graph.Node) string {
	q := n.ID
	if k := strings.LastIndexByte(q, ':'); k >= 0 {
		q = q[k+1:]
	}
	if k := strings.IndexAny(q, "(#"); k > 0 {
		q = q[:k]
	}
	return q
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
