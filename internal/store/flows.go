package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Communities and processes are nodes and edges like the others; the
// properties that do not fit the node table live in two tables keyed by the
// node's rid. STEP_IN_PROCESS edges keep the 1-based step in edge.line.

const createFlowTables = `
CREATE TABLE community (
	rid          INTEGER PRIMARY KEY,
	label        TEXT NOT NULL,
	cohesion     REAL NOT NULL,
	symbol_count INTEGER NOT NULL,
	keywords     TEXT NOT NULL
);
CREATE TABLE process (
	rid          INTEGER PRIMARY KEY,
	label        TEXT NOT NULL,
	process_type TEXT NOT NULL,
	step_count   INTEGER NOT NULL,
	entry        INTEGER NOT NULL,
	terminal     INTEGER NOT NULL,
	rank         INTEGER NOT NULL
);
`

// createFlowViews are the stable views over them (docs/schema.md).
const createFlowViews = `
CREATE VIEW communities AS
	SELECT n.id AS id, c.label AS label, c.cohesion AS cohesion, c.symbol_count AS symbol_count,
	       c.keywords AS keywords
	FROM community c JOIN node n ON n.rid = c.rid;
CREATE VIEW processes AS
	SELECT n.id AS id, p.label AS label, p.process_type AS process_type, p.step_count AS step_count,
	       e.id AS entry_id, t.id AS terminal_id, p.rank AS rank
	FROM process p JOIN node n ON n.rid = p.rid JOIN node e ON e.rid = p.entry JOIN node t ON t.rid = p.terminal;
CREATE VIEW process_steps AS
	SELECT p.id AS process_id, e.line AS step, s.id AS symbol_id
	FROM edge e JOIN node s ON s.rid = e.src JOIN node p ON p.rid = e.dst
	WHERE e.type = 'STEP_IN_PROCESS';
`

// loadFlows stores the properties of the graph's communities and processes.
func loadFlows(ctx context.Context, tx *sql.Tx, g *graph.Graph, rid ridsByID) error {
	f := g.Flows()
	if f == nil {
		return nil
	}
	comm, err := newBatchInsert(ctx, tx, "community", []string{"rid", "label", "cohesion", "symbol_count", "keywords"})
	if err != nil {
		return fmt.Errorf("store communities: %w", err)
	}
	for _, c := range f.Communities {
		r, ok := rid.lookup(c.ID)
		if !ok {
			return fmt.Errorf("store communities: no node %s", c.ID)
		}
		if err := comm.add(r, c.Label, c.Cohesion, c.SymbolCount, strings.Join(c.Keywords, " ")); err != nil {
			return fmt.Errorf("store communities: %w", err)
		}
	}
	if err := comm.flush(); err != nil {
		return fmt.Errorf("store communities: %w", err)
	}
	proc, err := newBatchInsert(ctx, tx, "process", []string{"rid", "label", "process_type", "step_count", "entry", "terminal", "rank"})
	if err != nil {
		return fmt.Errorf("store processes: %w", err)
	}
	for i, p := range f.Processes {
		r, ok1 := rid.lookup(p.ID)
		entry, ok2 := rid.lookup(p.Steps[0])
		terminal, ok3 := rid.lookup(p.Steps[len(p.Steps)-1])
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("store processes: a node of %s is missing", p.ID)
		}
		if err := proc.add(r, p.Label, p.Type, len(p.Steps), entry, terminal, i+1); err != nil {
			return fmt.Errorf("store processes: %w", err)
		}
	}
	if err := proc.flush(); err != nil {
		return fmt.Errorf("store processes: %w", err)
	}
	return nil
}

// CommunityRow is one community's properties; Rid is its node's.
type CommunityRow struct {
	Rid         int64
	Label       string
	Cohesion    float64
	SymbolCount int
	Keywords    []string
}

// ProcessRow is one process's properties; Rid, Entry and Terminal are node
// rids. Rank is its place in the indexer's order (1 first: the entry's
// score, then the length).
type ProcessRow struct {
	Rid             int64
	Label           string
	Type            string
	StepCount       int
	Entry, Terminal int64
	Rank            int
}

// Flows reads every community and process, in rid order.
func (r *Reader) Flows(ctx context.Context) ([]CommunityRow, []ProcessRow, error) {
	var cs []CommunityRow
	rows, err := r.q.QueryContext(ctx, `SELECT rid, label, cohesion, symbol_count, keywords FROM community ORDER BY rid`)
	if err != nil {
		return nil, nil, fmt.Errorf("read communities: %w", err)
	}
	for rows.Next() {
		var c CommunityRow
		var kw string
		if err := rows.Scan(&c.Rid, &c.Label, &c.Cohesion, &c.SymbolCount, &kw); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("read communities: %w", err)
		}
		c.Keywords = strings.Fields(kw)
		cs = append(cs, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read communities: %w", err)
	}
	var ps []ProcessRow
	rows, err = r.q.QueryContext(ctx, `SELECT rid, label, process_type, step_count, entry, terminal, rank FROM process ORDER BY rid`)
	if err != nil {
		return nil, nil, fmt.Errorf("read processes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p ProcessRow
		if err := rows.Scan(&p.Rid, &p.Label, &p.Type, &p.StepCount, &p.Entry, &p.Terminal, &p.Rank); err != nil {
			return nil, nil, fmt.Errorf("read processes: %w", err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read processes: %w", err)
	}
	return cs, ps, nil
}

// Partition reads the index's communities and their members, for a
// re-index to update them locally. It is nil when the index does not say
// how its communities were found (written before it kept that, or with no
// communities).
func (r *Reader) Partition(ctx context.Context) (*graph.Partition, error) {
	pf, err := r.PartitionFacts(ctx)
	if pf == nil || err != nil {
		return nil, err
	}
	p := pf.p
	// Through edge_dst: the planner would otherwise scan every edge for
	// the type.
	rows, err := r.q.QueryContext(ctx, `SELECT e.dst, n.id FROM edge e INDEXED BY edge_dst JOIN node n ON n.rid = e.src
		WHERE e.dst IN (SELECT rid FROM community) AND e.type = 'MEMBER_OF'`)
	if err != nil {
		return nil, fmt.Errorf("read community members: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rid int64
		var id string
		if err := rows.Scan(&rid, &id); err != nil {
			return nil, fmt.Errorf("read community members: %w", err)
		}
		p.Of[id] = pf.index[rid]
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read community members: %w", err)
	}
	return p, nil
}

// PartitionFacts are the index's communities without their members,
// which Members reads from the index's snapshot: the query of the members
// (43,902 of them on the Go standard library) took 100-150 ms, a scan of
// the snapshot's edges a fraction of it.
type PartitionFacts struct {
	p          *graph.Partition
	index      map[int64]int32 // community rid -> index in p.Communities
	generation int64
}

// PartitionFacts reads the communities, without their members (Members);
// nil when the index has none.
func (r *Reader) PartitionFacts(ctx context.Context) (*PartitionFacts, error) {
	d := r.meta.Communities
	if d == nil {
		return nil, nil
	}
	p := &graph.Partition{Detection: *d, Of: map[string]int32{}}
	rows, err := r.q.QueryContext(ctx, `SELECT c.rid, n.id, c.label, c.cohesion, c.symbol_count, c.keywords, n.language
		FROM community c JOIN node n ON n.rid = c.rid ORDER BY n.id`)
	if err != nil {
		return nil, fmt.Errorf("read communities: %w", err)
	}
	index := map[int64]int32{}
	for rows.Next() {
		var rid int64
		var c graph.CommunityFacts
		var kw, language string
		if err := rows.Scan(&rid, &c.ID, &c.Label, &c.Cohesion, &c.SymbolCount, &kw, &language); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read communities: %w", err)
		}
		c.Keywords = strings.Fields(kw)
		index[rid] = int32(len(p.Communities))
		p.Communities = append(p.Communities, c)
		p.Languages = append(p.Languages, language)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read communities: %w", err)
	}
	if len(p.Communities) == 0 {
		return nil, nil
	}
	return &PartitionFacts{p: p, index: index, generation: r.meta.Generation}, nil
}

// Members completes the partition with its members from the MEMBER_OF
// edges of a, the snapshot of the same index; false, with the partition
// left without members, when a is nil or of another generation (the
// caller then reads them with Partition). Use the partition once only.
func (pf *PartitionFacts) Members(a *Ahead) (*graph.Partition, bool) {
	if a == nil || a.generation != pf.generation {
		return nil, false
	}
	s := a.snap
	types := s.edgeTypes()
	for k := range s.Edges {
		e := &s.Edges[k]
		if types[k] != graph.EdgeMemberOf {
			continue
		}
		if c, ok := pf.index[s.Nodes[e.Dst].Rid]; ok {
			pf.p.Of[s.Nodes[e.Src].ID] = c
		}
	}
	return pf.p, true
}
