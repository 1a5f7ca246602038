package teamstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// DefaultPoll is how often a replica asks the store for new generations
// when no push notification arrives.
const DefaultPoll = 5 * time.Second

// genFile, in a replica's copy of an index, names the generation it holds.
const genFile = "store-generation"

// Replica serves the store's repositories to a backend
// (backend.RepoSource): it lists them, copies a repository's current
// generation into an index of its own under dir on first use, and copies
// each new generation as it is pushed (told by the push's notification,
// or seen by a poll). The backend reloads a copy when its file changes, so
// every answer comes from one generation.
type Replica struct {
	s    *Store
	dir  string
	poll time.Duration
	log  *slog.Logger

	down bool // the store did not answer the last look (the watcher's)

	mu      sync.Mutex
	repos   []RepoInfo
	version uint64
	locks   map[string]*sync.Mutex // one copy of a repository at a time

	stop chan struct{}
	done chan struct{}
}

// NewReplica lists the store's repositories and starts watching for
// pushes. dir holds the copies (a directory of the replica's own).
func (s *Store) NewReplica(ctx context.Context, dir string, poll time.Duration, log *slog.Logger) (*Replica, error) {
	if poll <= 0 {
		poll = DefaultPoll
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("replica directory: %w", err)
	}
	r := &Replica{s: s, dir: dir, poll: poll, log: log, locks: map[string]*sync.Mutex{},
		stop: make(chan struct{}), done: make(chan struct{})}
	repos, err := s.Repos(ctx)
	if err != nil {
		return nil, err
	}
	r.repos, r.version = repos, 1
	go r.watch()
	return r, nil
}

// Close stops watching.
func (r *Replica) Close() {
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	<-r.done
}

// Version changes whenever the list of repositories or a generation
// changes.
func (r *Replica) Version() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version
}

// Repos lists the repositories as the backend sees them.
func (r *Replica) Repos() ([]backend.RepoHandle, uint64, error) {
	r.mu.Lock()
	repos, v := r.repos, r.version
	r.mu.Unlock()
	out := make([]backend.RepoHandle, 0, len(repos))
	for _, x := range repos {
		var st registry.Stats
		_ = json.Unmarshal(x.Stats, &st)
		out = append(out, backend.RepoHandle{ID: x.Key, Name: x.Name, RepoPath: x.Path, StoragePath: r.indexDir(x.Key),
			IndexedAt: x.IndexedAt, LastCommit: x.LastCommit, Stats: st})
	}
	return out, v, nil
}

// indexDir is where the copy of a repository's index lives.
func (r *Replica) indexDir(key string) string {
	return filepath.Join(r.dir, safeName(key), store.DirName)
}

// safeName makes a key a file name.
func safeName(key string) string {
	var b strings.Builder
	for _, c := range key {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteRune(c)
		default:
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	if s := b.String(); s != "" && s != "." && s != ".." {
		return s
	}
	return "%" + key
}

// localGeneration is the generation of the copy of a repository, 0 when
// there is none.
func (r *Replica) localGeneration(key string) int64 {
	b, err := os.ReadFile(filepath.Join(r.indexDir(key), genFile))
	if err != nil {
		return 0
	}
	g, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if _, err := os.Stat(filepath.Join(r.indexDir(key), store.DBName)); err != nil {
		return 0
	}
	return g
}

// Prepare makes sure a copy of the repository's index exists: the first
// call copies the current generation; later generations are copied by the
// watcher while the copy in place is served.
func (r *Replica) Prepare(ctx context.Context, key string) error {
	if r.localGeneration(key) > 0 {
		return nil
	}
	_, err := r.copyRepo(ctx, key, 0)
	return err
}

func (r *Replica) lock(key string) *sync.Mutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.locks[key]
	if l == nil {
		l = &sync.Mutex{}
		r.locks[key] = l
	}
	return l
}

// copyRepo copies the repository's current generation unless the copy
// in place is of it already, or (when older > 0) is not of generation
// older any more. It returns the generation copied (0: none).
func (r *Replica) copyRepo(ctx context.Context, key string, older int64) (int64, error) {
	l := r.lock(key)
	l.Lock()
	defer l.Unlock()
	local := r.localGeneration(key)
	if older > 0 && local != older {
		return 0, nil // copied meanwhile
	}
	if older == 0 && local > 0 {
		return 0, nil
	}
	start := time.Now()
	gen, err := r.s.Copy(ctx, key, r.indexDir(key), local)
	if err != nil {
		return 0, err
	}
	if gen > 0 {
		r.log.Info("copied a generation from the store", "repo", key, "generation", gen, "took", time.Since(start).Round(time.Millisecond))
	}
	return gen, nil
}

// watch waits for push notifications (or the poll's interval) and copies
// the new generations of the repositories this replica has copies of.
func (r *Replica) watch() {
	defer close(r.done)
	var conn *pgxpool.Conn
	defer func() {
		if conn != nil {
			conn.Release()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-r.stop
		cancel()
	}()
	r.refresh(ctx) // a copy left by an earlier run may be old
	for {
		if conn == nil {
			c, err := r.s.pool.Acquire(ctx)
			if err == nil {
				if _, err = c.Exec(ctx, "LISTEN gitnexus_push"); err != nil {
					c.Release()
				} else {
					conn = c
				}
			}
		}
		wait, cancelWait := context.WithTimeout(ctx, r.poll)
		if conn != nil {
			_, err := conn.Conn().WaitForNotification(wait)
			if err != nil && wait.Err() == nil && ctx.Err() == nil {
				// The connection broke: a new one next time.
				conn.Conn().Close(context.Background())
				conn.Release()
				conn = nil
				<-wait.Done()
			}
		} else {
			<-wait.Done()
		}
		cancelWait()
		if ctx.Err() != nil {
			return
		}
		r.refresh(ctx)
	}
}

// refresh reads the store's list and copies new generations.
func (r *Replica) refresh(ctx context.Context) {
	repos, err := r.s.Repos(ctx)
	if err != nil {
		if ctx.Err() == nil && !r.down {
			r.down = true
			r.log.Warn("the store does not answer; serving the copies in place until it does", "store", r.s.where, "err", err)
		}
		return
	}
	if r.down {
		r.down = false
		r.log.Info("the store answers again", "store", r.s.where)
	}
	r.mu.Lock()
	if !sameRepos(r.repos, repos) {
		r.repos = repos
		r.version++
	}
	r.mu.Unlock()
	for _, x := range repos {
		local := r.localGeneration(x.Key)
		if local == 0 || local == x.Generation {
			continue
		}
		if _, err := r.copyRepo(ctx, x.Key, local); err != nil && ctx.Err() == nil {
			r.log.Warn("cannot copy a new generation from the store; serving the one in place", "repo", x.Key, "generation", local, "err", err)
		}
	}
}

func sameRepos(a, b []RepoInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Generation != b[i].Generation || a[i].Name != b[i].Name || a[i].Path != b[i].Path {
			return false
		}
	}
	return true
}

// ErrNotInStore is a repository the store does not serve.
var ErrNotInStore = errors.New("not in the store")

// Copy writes the repository's current generation as an index in dir (a
// .gitnexus directory), read in one transaction, unless it is generation
// have; it returns the generation written (0 when it was have).
func (s *Store) Copy(ctx context.Context, key, dir string, have int64) (int64, error) {
	var gen int64
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var id int32
		var sj []byte
		err := tx.QueryRow(ctx, `SELECT id, generation, schema::text FROM `+s.schema+`.gitnexus_repos WHERE key = $1 AND generation > 0`, key).
			Scan(&id, &gen, &sj)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("repository %q: %w %s", key, ErrNotInStore, s.where)
		}
		if err != nil {
			return err
		}
		if gen == have {
			gen = 0
			return nil
		}
		var schema store.RawSchema
		if err := json.Unmarshal(sj, &schema); err != nil {
			return fmt.Errorf("the store's schema of %s: %w", key, err)
		}
		if err := store.RawRestore(ctx, dir, schema, func(ti int, emit func([]any) error) error {
			return s.readTable(ctx, tx, id, schema.Tables[ti], emit)
		}); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, genFile), []byte(strconv.FormatInt(gen, 10)+"\n"), 0o644)
	})
	if err != nil {
		return 0, fmt.Errorf("copy %s from the store %s: %w", key, s.where, err)
	}
	return gen, nil
}

// readTable emits a repository's rows of one table as the dump read them.
// The rows are read from PostgreSQL and decoded by a goroutine of their
// own, while emit (writing SQLite) runs: the two take about as long.
func (s *Store) readTable(ctx context.Context, tx pgx.Tx, repo int32, t store.RawTable, emit func([]any) error) error {
	cols := storeColumns(t)[2:] // gn_raw, the rowid, the columns
	for i, c := range cols {
		cols[i] = pgx.Identifier{c}.Sanitize()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan [][]any, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(batches)
		errc <- s.decodeTable(ctx, tx, repo, t, cols, batches)
	}()
	for b := range batches {
		for _, row := range b {
			if err := emit(row); err != nil {
				cancel()
				for range batches { // let the reader end
				}
				<-errc
				return err
			}
		}
	}
	return <-errc
}

// decodeTable sends a table's rows, decoded, in batches.
func (s *Store) decodeTable(ctx context.Context, tx pgx.Tx, repo int32, t store.RawTable, cols []string, out chan<- [][]any) error {
	rows, err := tx.Query(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+s.table(t.Name)+` WHERE gn_repo = $1`, repo)
	if err != nil {
		return err
	}
	defer rows.Close()
	kinds := make([]colKind, len(t.Columns))
	for i, c := range t.Columns {
		kinds[i] = kindOf(c.Type)
	}
	n := len(t.Columns)
	off := 1
	if t.Rowid {
		n++
		off = 2
	}
	const batchRows = 512
	batch := make([][]any, 0, batchRows)
	send := func() bool {
		select {
		case out <- batch:
			batch = make([][]any, 0, batchRows)
			return true
		case <-ctx.Done():
			return false
		}
	}
	for rows.Next() {
		raw, err := rows.Values()
		if err != nil {
			return err
		}
		var vals []any
		if enc, ok := raw[0].([]byte); ok && enc != nil {
			if vals, err = decodeRow(enc, n); err != nil {
				return fmt.Errorf("table %s: %w", t.Name, err)
			}
		} else {
			vals = make([]any, n)
			if t.Rowid {
				vals[0] = raw[1]
			}
			for i, k := range kinds {
				v, err := untyped(k, raw[off+i])
				if err != nil {
					return fmt.Errorf("table %s: %w", t.Name, err)
				}
				vals[n-len(kinds)+i] = v
			}
		}
		if batch = append(batch, vals); len(batch) == batchRows && !send() {
			return ctx.Err()
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(batch) > 0 && !send() {
		return ctx.Err()
	}
	return nil
}
