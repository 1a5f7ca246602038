// Package community partitions a weighted undirected graph into
// communities by modularity: Louvain's local moving and aggregation with
// Leiden's refinement (every community is split into its connected parts
// before aggregation, so no community is ever disconnected). It is seeded,
// so a graph and a seed always give the same partition, and it can stop at
// a time budget, keeping the best partition found so far.
package community

import (
	"math/rand"
	"sort"
	"time"
)

// Edge is one undirected weighted edge between nodes U and V (0-based).
type Edge struct {
	U, V int32
	W    float64
}

// Graph is an undirected weighted graph in CSR form. Parallel edges are
// merged; a self loop counts once in the node's degree.
type Graph struct {
	n      int
	off    []int32
	adj    []int32
	w      []float64
	self   []float64 // self-loop weight per node
	degree []float64 // weighted degree: sum of incident weights, self loops twice
	total  float64   // sum of all edge weights (m)
}

// NewGraph builds a graph of n nodes. Edges with a non-positive weight or
// an end outside [0, n) are ignored.
func NewGraph(n int, edges []Edge) *Graph {
	g := &Graph{n: n, off: make([]int32, n+1), self: make([]float64, n), degree: make([]float64, n)}
	type half struct {
		to int32
		w  float64
	}
	lists := make([][]half, n)
	for _, e := range edges {
		if e.W <= 0 || e.U < 0 || e.V < 0 || int(e.U) >= n || int(e.V) >= n {
			continue
		}
		g.total += e.W
		if e.U == e.V {
			g.self[e.U] += e.W
			g.degree[e.U] += 2 * e.W
			continue
		}
		lists[e.U] = append(lists[e.U], half{e.V, e.W})
		lists[e.V] = append(lists[e.V], half{e.U, e.W})
		g.degree[e.U] += e.W
		g.degree[e.V] += e.W
	}
	for i, l := range lists {
		sort.Slice(l, func(a, b int) bool { return l[a].to < l[b].to })
		for j := 0; j < len(l); j++ {
			if len(g.adj) > int(g.off[i]) && g.adj[len(g.adj)-1] == l[j].to {
				g.w[len(g.w)-1] += l[j].w // a parallel edge
				continue
			}
			g.adj = append(g.adj, l[j].to)
			g.w = append(g.w, l[j].w)
		}
		g.off[i+1] = int32(len(g.adj))
	}
	return g
}

// Len is the number of nodes.
func (g *Graph) Len() int { return g.n }

// Neighbors returns node i's neighbours in increasing order and the weight
// of the edge to each (parallel edges summed); the slices are the graph's.
func (g *Graph) Neighbors(i int32) ([]int32, []float64) {
	a, b := g.off[i], g.off[i+1]
	return g.adj[a:b], g.w[a:b]
}

// Options tune Detect.
type Options struct {
	// Seed orders the node visits; the same seed gives the same partition.
	Seed int64
	// Resolution scales the null model: above 1 gives more, smaller
	// communities. 0 means 1.
	Resolution float64
	// Budget stops improving after this long and keeps the best partition
	// found; 0 means no limit.
	Budget time.Duration
	// MaxLevels bounds the aggregation levels (0: until nothing moves).
	MaxLevels int
}

// Result is a partition.
type Result struct {
	// Community of each node, numbered 0..Count-1 in order of first
	// appearance by node index.
	Community  []int32
	Count      int
	Modularity float64
	Levels     int
	// Stopped says the budget ran out before the partition settled.
	Stopped bool
}

// Detect partitions g. A graph without edges gives every node its own
// community.
func Detect(g *Graph, opt Options) Result {
	if opt.Resolution <= 0 {
		opt.Resolution = 1
	}
	var deadline time.Time
	if opt.Budget > 0 {
		deadline = time.Now().Add(opt.Budget)
	}
	rng := rand.New(rand.NewSource(opt.Seed))
	// membership maps original nodes to nodes of the current level.
	membership := make([]int32, g.n)
	for i := range membership {
		membership[i] = int32(i)
	}
	best := Result{Community: renumber(membership), Modularity: Modularity(g, membership, opt.Resolution)}
	best.Count = count(best.Community)
	if g.total == 0 {
		return best
	}
	cur := g
	var start []int32 // initial partition of the current level (nil: singletons)
	for level := 0; opt.MaxLevels == 0 || level < opt.MaxLevels; level++ {
		part := start
		if part == nil {
			part = identity(cur.n)
		}
		moved, stopped := localMoving(cur, part, opt.Resolution, rng, deadline)
		refined := refine(cur, part)
		// The partition of the original nodes after this level: the
		// refined one, whose communities are connected (splitting a
		// community into parts with no edges between them only raises
		// modularity).
		full := make([]int32, g.n)
		for i, m := range membership {
			full[i] = refined[m]
		}
		q := Modularity(g, full, opt.Resolution)
		c := renumber(full)
		if n := count(c); q > best.Modularity+1e-12 && (n > 1 || g.n <= 1) {
			best = Result{Community: c, Count: n, Modularity: q, Levels: level + 1}
		}
		if stopped {
			best.Stopped = true
			break
		}
		if !moved && start != nil {
			break
		}
		// Aggregate by the refined partition; start the next level from
		// the unrefined communities.
		refined = renumber(refined)
		nAgg := count(refined)
		if nAgg == cur.n {
			break // nothing merged: settled
		}
		next := aggregate(cur, refined, nAgg)
		start = make([]int32, nAgg)
		for i, r := range refined {
			start[r] = part[i]
		}
		start = renumber(start)
		for i, m := range membership {
			membership[i] = refined[m]
		}
		cur = next
	}
	return best
}

func identity(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// localMoving moves nodes to the neighbouring community with the best
// modularity gain until no move helps (a queue of nodes to revisit, as in
// fast local moving). It reports whether any node moved, and whether the
// deadline cut it short.
func localMoving(g *Graph, part []int32, res float64, rng *rand.Rand, deadline time.Time) (moved, stopped bool) {
	n := g.n
	commDeg := make([]float64, n) // sum of degrees per community
	size := make([]int32, n)      // members per community
	for i := 0; i < n; i++ {
		commDeg[part[i]] += g.degree[i]
		size[part[i]]++
	}
	// Empty community ids, for a node better off alone.
	var empty []int32
	for c := n - 1; c >= 0; c-- {
		if size[c] == 0 {
			empty = append(empty, int32(c))
		}
	}
	m2 := 2 * g.total
	order := rng.Perm(n)
	queue := make([]int32, 0, n)
	inQueue := make([]bool, n)
	for _, i := range order {
		queue = append(queue, int32(i))
		inQueue[i] = true
	}
	neighW := make([]float64, n) // weight from the node to each community
	var touched []int32
	steps := 0
	for head := 0; head < len(queue); head++ {
		if steps++; steps&1023 == 0 && !deadline.IsZero() && time.Now().After(deadline) {
			return moved, true
		}
		i := queue[head]
		inQueue[i] = false
		own := part[i]
		touched = touched[:0]
		for k := g.off[i]; k < g.off[i+1]; k++ {
			c := part[g.adj[k]]
			if neighW[c] == 0 {
				touched = append(touched, c)
			}
			neighW[c] += g.w[k]
		}
		ki := g.degree[i]
		commDeg[own] -= ki
		size[own]--
		// Gain of joining c, up to constants: w(i,c) - res*ki*deg(c)/2m;
		// staying wins ties, then the smaller id.
		bestC, bestGain := own, neighW[own]-res*ki*commDeg[own]/m2
		for _, c := range touched {
			if c == own {
				continue
			}
			gain := neighW[c] - res*ki*commDeg[c]/m2
			if gain > bestGain+1e-12 || (gain >= bestGain-1e-12 && bestC != own && c < bestC) {
				bestC, bestGain = c, gain
			}
		}
		if bestGain < -1e-12 && size[own] > 0 && len(empty) > 0 {
			// Alone (gain 0) beats every community around.
			bestC = empty[len(empty)-1]
			empty = empty[:len(empty)-1]
		}
		if size[own] == 0 && bestC != own {
			empty = append(empty, own)
		}
		commDeg[bestC] += ki
		size[bestC]++
		for _, c := range touched {
			neighW[c] = 0
		}
		neighW[own] = 0
		if bestC != own {
			part[i] = bestC
			moved = true
			for k := g.off[i]; k < g.off[i+1]; k++ {
				j := g.adj[k]
				if part[j] != bestC && !inQueue[j] {
					inQueue[j] = true
					queue = append(queue, j)
				}
			}
		}
		if head > 4*n && head > 1<<16 { // compact the queue now and then
			queue = append(queue[:0], queue[head+1:]...)
			head = -1
		}
	}
	return moved, false
}

// refine splits every community into its connected parts (within the
// community's own edges): the refined partition, one id per part.
func refine(g *Graph, part []int32) []int32 {
	out := make([]int32, g.n)
	for i := range out {
		out[i] = -1
	}
	next := int32(0)
	stack := []int32{}
	for s := 0; s < g.n; s++ {
		if out[s] >= 0 {
			continue
		}
		out[s] = next
		stack = append(stack[:0], int32(s))
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for k := g.off[i]; k < g.off[i+1]; k++ {
				j := g.adj[k]
				if out[j] < 0 && part[j] == part[i] {
					out[j] = next
					stack = append(stack, j)
				}
			}
		}
		next++
	}
	return out
}

// aggregate builds the graph of communities: one node per community, edge
// weights summed, internal weight as self loops.
func aggregate(g *Graph, part []int32, n int) *Graph {
	var edges []Edge
	for i := 0; i < g.n; i++ {
		ci := part[i]
		if g.self[i] > 0 {
			edges = append(edges, Edge{ci, ci, g.self[i]})
		}
		for k := g.off[i]; k < g.off[i+1]; k++ {
			j := g.adj[k]
			if int32(i) < j { // each undirected edge once
				edges = append(edges, Edge{ci, part[j], g.w[k]})
			}
		}
	}
	return NewGraph(n, edges)
}

// renumber maps community ids to 0..k-1 by first appearance.
func renumber(part []int32) []int32 {
	ids := map[int32]int32{}
	out := make([]int32, len(part))
	for i, c := range part {
		id, ok := ids[c]
		if !ok {
			id = int32(len(ids))
			ids[c] = id
		}
		out[i] = id
	}
	return out
}

func count(part []int32) int {
	max := int32(-1)
	for _, c := range part {
		if c > max {
			max = c
		}
	}
	return int(max + 1)
}

// Modularity of a partition of g with the given resolution:
// sum over communities of in(c)/m - res*(deg(c)/2m)^2.
func Modularity(g *Graph, part []int32, res float64) float64 {
	if g.total == 0 {
		return 0
	}
	k := count(part)
	in := make([]float64, k)
	deg := make([]float64, k)
	for i := 0; i < g.n; i++ {
		c := part[i]
		deg[c] += g.degree[i]
		in[c] += g.self[i]
		for k := g.off[i]; k < g.off[i+1]; k++ {
			if j := g.adj[k]; int32(i) < j && part[j] == c {
				in[c] += g.w[k]
			}
		}
	}
	// Sum in community order so that the same partition always gives the
	// same bits (map order would not).
	m := g.total
	q := 0.0
	for c, d := range deg {
		if d == 0 && in[c] == 0 {
			continue
		}
		q += in[c]/m - res*(d/(2*m))*(d/(2*m))
	}
	return q
}

// Cohesion of each community: the share of its members' edge weight that
// stays inside it (self loops count as inside).
func Cohesion(g *Graph, part []int32, n int) []float64 {
	inside := make([]float64, n)
	all := make([]float64, n)
	for i := 0; i < g.n; i++ {
		c := part[i]
		inside[c] += 2 * g.self[i]
		all[c] += g.degree[i]
		for k := g.off[i]; k < g.off[i+1]; k++ {
			if part[g.adj[k]] == c {
				inside[c] += g.w[k]
			}
		}
	}
	out := make([]float64, n)
	for c := range out {
		if all[c] > 0 {
			out[c] = inside[c] / all[c]
		}
	}
	return out
}
