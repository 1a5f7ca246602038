package teamstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// PushOptions configure a push.
type PushOptions struct {
	// Key is the repository's key in the store, what agents call it by
	// (--repo); default: its id in the local registry.
	Key string
	// Progress, when set, is told each table as its rows are compared.
	Progress func(table string)

	// afterSent is called after each row sent (tests: faults in the
	// middle of a push).
	afterSent func(sent int64)
}

// PushReport says what a push did.
type PushReport struct {
	Key        string        `json:"key"`
	Generation int64         `json:"generation"` // the generation served now
	Previous   int64         `json:"previous"`   // the one served before (0: none)
	Rows       int64         `json:"rows"`       // rows of the local index
	Sent       int64         `json:"sent"`       // rows sent
	Deleted    int64         `json:"deleted"`    // rows deleted from the store
	Bytes      int64         `json:"bytes"`      // size of the rows sent, as encoded
	Unchanged  bool          `json:"unchanged"`  // the store held this index already: no new generation
	Elapsed    time.Duration `json:"-"`
}

// Push copies the index of a registered repository to the store as its
// next generation, sending only the rows the store lacks.
func (s *Store) Push(ctx context.Context, e registry.Entry, opts PushOptions) (*PushReport, error) {
	start := time.Now()
	key := opts.Key
	if key == "" {
		key = e.ID
	}
	if key == "" {
		return nil, errors.New("push: the repository has no key")
	}
	// The dump's schema is read first, so that the tables exist before
	// the push's transaction (creating them inside it would hold the
	// schema lock, and so serialise every push, until it commits).
	schema, err := readSchema(ctx, e.StoragePath)
	if err != nil {
		return nil, err
	}
	if err := s.ensureTables(ctx, schema); err != nil {
		return nil, err
	}
	rep := &PushReport{Key: key}
	stPath := statePath(e.StoragePath, s.where, key)
	var state *pushState // what to remember once committed
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('gitnexus:repo:' || $1))`, key); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO `+s.schema+`.gitnexus_repos (key, name, path) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO NOTHING`, key, e.Name, e.Path); err != nil {
			return err
		}
		var id int32
		var prevSchema []byte
		var pushID string
		if err := tx.QueryRow(ctx, `SELECT id, generation, COALESCE(schema::text, 'null'), push_id FROM `+s.schema+`.gitnexus_repos WHERE key = $1 FOR UPDATE`, key).
			Scan(&id, &rep.Previous, &prevSchema, &pushID); err != nil {
			return err
		}
		p := &pusher{s: s, tx: tx, ctx: ctx, repo: id, opts: opts, rep: rep, cur: -1, now: &pushState{tables: map[string][]rowHash{}}}
		if st, err := readState(stPath); err == nil && pushID != "" && st.id == pushID {
			p.known = st
		}
		if _, err := store.RawDump(ctx, e.StoragePath, p); err != nil {
			p.abort()
			return err
		}
		if err := p.finishAll(); err != nil {
			return err
		}
		// Tables the previous generation had and this one has not.
		var prev store.RawSchema
		_ = json.Unmarshal(prevSchema, &prev)
		for _, t := range prev.Tables {
			if p.hasTable(t.Name) {
				continue
			}
			tag, err := tx.Exec(ctx, `DELETE FROM `+s.table(t.Name)+` WHERE gn_repo = $1`, id)
			if err != nil {
				return err
			}
			rep.Deleted += tag.RowsAffected()
		}
		if rep.Sent == 0 && rep.Deleted == 0 && rep.Previous > 0 {
			rep.Unchanged, rep.Generation = true, rep.Previous
			if p.known == nil && pushID != "" {
				p.now.id = pushID
				state = p.now
			}
			return nil // nothing to commit but the lock
		}
		p.now.id = newPushID()
		sj, err := json.Marshal(p.schema)
		if err != nil {
			return err
		}
		stats, err := json.Marshal(e.Stats)
		if err != nil {
			return err
		}
		host, _ := os.Hostname()
		err = tx.QueryRow(ctx, `UPDATE `+s.schema+`.gitnexus_repos SET generation = generation + 1, name = $2, path = $3,
			schema = $4, stats = $5, indexed_at = $6, indexed_ns = $9, last_commit = $7, pushed_at = now(), pushed_from = $8,
			push_id = $10
			WHERE id = $1 RETURNING generation`, id, e.Name, e.Path, string(sj), string(stats), e.IndexedAt, e.LastCommit, host, e.IndexedAt.UnixNano(),
			p.now.id).Scan(&rep.Generation)
		if err != nil {
			return err
		}
		state = p.now
		_, err = tx.Exec(ctx, `SELECT pg_notify('gitnexus_push', $1)`, key)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("push %s to %s: %w", key, s.where, err)
	}
	if state != nil {
		if err := writeState(stPath, state); err != nil {
			os.Remove(stPath) // the next push reads the store
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// readSchema reads an index's schema (and nothing else).
func readSchema(ctx context.Context, dir string) (store.RawSchema, error) {
	var s schemaOnly
	_, err := store.RawDump(ctx, dir, &s)
	if errors.Is(err, errSchemaRead) {
		err = nil
	}
	return s.schema, err
}

var errSchemaRead = errors.New("schema read")

type schemaOnly struct{ schema store.RawSchema }

func (s *schemaOnly) Schema(x store.RawSchema) error { s.schema = x; return errSchemaRead }
func (s *schemaOnly) Row(int, []any) error           { return errSchemaRead }

// columns of a store table, in order: ours, the rowid, the index's.
func storeColumns(t store.RawTable) []string {
	cols := []string{"gn_repo", "gn_h", "gn_raw"}
	if t.Rowid {
		cols = append(cols, "gn_rowid")
	}
	for _, c := range t.Columns {
		cols = append(cols, c.Name)
	}
	return cols
}

// ensureTables creates the store's tables of an index schema, and checks
// that existing ones have its columns.
func (s *Store) ensureTables(ctx context.Context, schema store.RawSchema) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('gitnexus:schema'))`); err != nil {
			return err
		}
		for _, t := range schema.Tables {
			var have []string
			rows, err := tx.Query(ctx, `SELECT column_name FROM information_schema.columns
				WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, s.schema, t.Name)
			if err != nil {
				return err
			}
			for rows.Next() {
				var c string
				if err := rows.Scan(&c); err != nil {
					rows.Close()
					return err
				}
				have = append(have, c)
			}
			rows.Close()
			want := storeColumns(t)
			if len(have) > 0 {
				if strings.Join(have, ",") != strings.Join(want, ",") {
					return fmt.Errorf("the store's table %s has the columns (%s), this index's (%s): was it written by another build of the same schema version?",
						s.table(t.Name), strings.Join(have, ", "), strings.Join(want, ", "))
				}
				continue
			}
			defs := []string{"gn_repo integer NOT NULL", "gn_h bytea NOT NULL", "gn_raw bytea"}
			if t.Rowid {
				defs = append(defs, "gn_rowid bigint")
			}
			for _, c := range t.Columns {
				defs = append(defs, pgx.Identifier{c.Name}.Sanitize()+" "+kindOf(c.Type).pgType())
			}
			idx := pgx.Identifier{t.Name + "_gn_key"}.Sanitize()
			if _, err := tx.Exec(ctx, `CREATE TABLE `+s.table(t.Name)+` (`+strings.Join(defs, ", ")+`);
				CREATE INDEX `+idx+` ON `+s.table(t.Name)+` (gn_repo, gn_h)`); err != nil {
				return fmt.Errorf("create the store's table %s: %w", s.table(t.Name), err)
			}
		}
		return nil
	})
}

// pusher compares a dump's rows, table by table, with the store's and
// sends what differs.
type pusher struct {
	s    *Store
	tx   pgx.Tx
	ctx  context.Context
	repo int32
	opts PushOptions
	rep  *PushReport

	schema store.RawSchema
	kinds  [][]colKind

	known *pushState // the store's rows as the last push left them, when still so
	now   *pushState // the rows as this push leaves them

	cur    int                     // the table being compared, -1 before the first
	remote map[rowHash]*remoteRows // the store's rows of cur
	copy   *copier                 // sending rows of cur, nil until the first
	buf    []byte
}

type remoteRows struct{ have, left int32 }

func (p *pusher) Schema(s store.RawSchema) error {
	p.schema = s
	p.kinds = make([][]colKind, len(s.Tables))
	for i, t := range s.Tables {
		for _, c := range t.Columns {
			p.kinds[i] = append(p.kinds[i], kindOf(c.Type))
		}
	}
	// Tables without rows are compared too (their rows in the store
	// deleted).
	return nil
}

func (p *pusher) hasTable(name string) bool {
	for _, t := range p.schema.Tables {
		if t.Name == name {
			return true
		}
	}
	return false
}

func (p *pusher) Row(ti int, vals []any) error {
	for p.cur < ti {
		if err := p.finishTable(); err != nil {
			return err
		}
		if err := p.startTable(p.cur + 1); err != nil {
			return err
		}
	}
	p.rep.Rows++
	p.buf = encodeRow(p.buf[:0], vals)
	h := hashOf(p.buf)
	name := p.schema.Tables[ti].Name
	p.now.tables[name] = append(p.now.tables[name], h)
	if r := p.remote[h]; r != nil && r.left > 0 {
		r.left--
		return nil
	}
	if p.copy == nil {
		p.copy = newCopier(p.ctx, p.tx, p.s.schema, p.schema.Tables[ti])
	}
	t := p.schema.Tables[ti]
	row := make([]any, 0, len(vals)+3)
	row = append(row, p.repo, h[:], nil)
	rest := vals
	if t.Rowid {
		row = append(row, vals[0])
		rest = vals[1:]
	}
	exact := true
	for i, v := range rest {
		x, ok := typed(p.kinds[ti][i], v)
		if !ok {
			exact = false
		}
		if b, isBytes := x.([]byte); isBytes && x != nil {
			x = append([]byte{}, b...) // the dump reuses its buffers
		}
		row = append(row, x)
	}
	if !exact {
		row[2] = append([]byte{}, p.buf...)
	}
	if t.Rowid {
		if _, ok := vals[0].(int64); !ok {
			return fmt.Errorf("table %s: a rowid that is not an integer", t.Name)
		}
	}
	if err := p.copy.send(row); err != nil {
		return err
	}
	p.rep.Sent++
	p.rep.Bytes += int64(len(p.buf))
	if p.opts.afterSent != nil {
		p.opts.afterSent(p.rep.Sent)
	}
	return nil
}

// startTable reads the store's row hashes of table ti.
func (p *pusher) startTable(ti int) error {
	p.cur = ti
	t := p.schema.Tables[ti]
	if p.opts.Progress != nil {
		p.opts.Progress(t.Name)
	}
	p.remote = map[rowHash]*remoteRows{}
	if _, ok := p.now.tables[t.Name]; !ok {
		p.now.tables[t.Name] = nil // a table without rows is known to have none
	}
	if p.known != nil {
		for _, h := range p.known.tables[t.Name] {
			if r := p.remote[h]; r != nil {
				r.have++
				r.left++
			} else {
				p.remote[h] = &remoteRows{have: 1, left: 1}
			}
		}
		return nil
	}
	rows, err := p.tx.Query(p.ctx, `SELECT gn_h, count(*) FROM `+p.s.table(t.Name)+` WHERE gn_repo = $1 GROUP BY gn_h`, p.repo)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var hb []byte
		var n int64
		if err := rows.Scan(&hb, &n); err != nil {
			return err
		}
		var h rowHash
		copy(h[:], hb)
		p.remote[h] = &remoteRows{have: int32(n), left: int32(n)}
	}
	return rows.Err()
}

// finishTable completes the copy of the current table and deletes the
// store's rows the index no longer has; after the last row of the dump it
// also runs over the tables that had none.
func (p *pusher) finishTable() error {
	if p.cur >= 0 {
		if p.copy != nil {
			c := p.copy
			p.copy = nil
			if err := c.close(); err != nil {
				return fmt.Errorf("send table %s: %w", p.schema.Tables[p.cur].Name, err)
			}
		}
		if err := p.deleteLeft(p.schema.Tables[p.cur]); err != nil {
			return err
		}
		p.remote = nil
	}
	return nil
}

// finishAll runs finishTable over the remaining tables (those after the
// last row).
func (p *pusher) finishAll() error {
	if err := p.finishTable(); err != nil {
		return err
	}
	for p.cur+1 < len(p.schema.Tables) {
		if err := p.startTable(p.cur + 1); err != nil {
			return err
		}
		if err := p.finishTable(); err != nil {
			return err
		}
	}
	return nil
}

func (p *pusher) deleteLeft(t store.RawTable) error {
	var all [][]byte
	for h, r := range p.remote {
		switch {
		case r.left == 0:
		case r.left == r.have:
			all = append(all, append([]byte{}, h[:]...))
		default: // some copies of a repeated row
			tag, err := p.tx.Exec(p.ctx, `DELETE FROM `+p.s.table(t.Name)+` WHERE ctid IN (
				SELECT ctid FROM `+p.s.table(t.Name)+` WHERE gn_repo = $1 AND gn_h = $2 LIMIT $3)`, p.repo, h[:], r.left)
			if err != nil {
				return err
			}
			p.rep.Deleted += tag.RowsAffected()
		}
	}
	for len(all) > 0 {
		n := min(len(all), 10000)
		tag, err := p.tx.Exec(p.ctx, `DELETE FROM `+p.s.table(t.Name)+` WHERE gn_repo = $1 AND gn_h = ANY($2)`, p.repo, all[:n])
		if err != nil {
			return err
		}
		p.rep.Deleted += tag.RowsAffected()
		all = all[n:]
	}
	return nil
}

func (p *pusher) abort() {
	if p.copy != nil {
		p.copy.abort()
		p.copy = nil
	}
}

// copier feeds one COPY of a table from rows sent to it.
type copier struct {
	rows     chan []any
	finished chan struct{}
	err      error // set before finished is closed
	cur      []any
}

func newCopier(ctx context.Context, tx pgx.Tx, schema string, t store.RawTable) *copier {
	c := &copier{rows: make(chan []any, 256), finished: make(chan struct{})}
	go func() {
		_, c.err = tx.CopyFrom(ctx, pgx.Identifier{schema, t.Name}, storeColumns(t), c)
		close(c.finished)
	}()
	return c
}

func (c *copier) send(row []any) error {
	select {
	case c.rows <- row:
		return nil
	case <-c.finished: // the COPY failed
		if c.err == nil {
			return errors.New("the copy ended early")
		}
		return c.err
	}
}

// close ends the copy and returns its error.
func (c *copier) close() error {
	close(c.rows)
	<-c.finished
	return c.err
}

func (c *copier) abort() { _ = c.close() }

// Next, Values and Err make copier a pgx.CopyFromSource.
func (c *copier) Next() bool {
	r, ok := <-c.rows
	c.cur = r
	return ok
}

func (c *copier) Values() ([]any, error) { return c.cur, nil }
func (c *copier) Err() error             { return nil }
