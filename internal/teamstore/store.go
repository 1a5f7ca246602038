// Package teamstore keeps the indexes of many repositories in one
// PostgreSQL database for a team: `gitnexus push` (and analyze --push)
// copies a repository's index there, and `gitnexus serve --store` runs
// replicas that serve every tool from it.
//
// Every table of an index (internal/store: nodes, edges, the snapshot, the
// history, communities, processes, the full-text index, vectors) has a
// table of the same name in the PostgreSQL schema gitnexus_v<N> (N is the
// index's schema version: two versions of the program never share
// tables), with the repository's number (gn_repo), the row's hash (gn_h)
// and its columns in the types SQLite declares. gitnexus_repos lists the
// repositories and the generation of each that is served.
//
// A push runs in one transaction: it sends the rows the database lacks
// (COPY), deletes those it no longer needs and increments the generation,
// so that a reader sees the previous generation or the next, never half of
// one, and a push interrupted anywhere leaves the previous generation in
// place. A replica reads a generation in one repeatable-read transaction
// into an index file of its own (store.RawRestore), which the backend then
// loads as it loads any local index.
package teamstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"gitnexus.dev/gitnexus/internal/store"
)

// ErrNeo4j answers a bolt:// or neo4j:// address.
var ErrNeo4j = errors.New("the shared store is PostgreSQL (postgres://...); for Neo4j, export the graph with `gitnexus export --format neo4j` and load it with neo4j-admin (docs/neo4j.md)")

// Store is a connection pool to the shared store.
type Store struct {
	pool   *pgxpool.Pool
	schema string // the PostgreSQL schema of this index version
	where  string // the address without its password, for messages
}

// Schema is the PostgreSQL schema that holds the tables of indexes of the
// schema version this program writes.
func Schema() string { return "gitnexus_v" + strconv.Itoa(store.SchemaVersion) }

// URIFromEnv is the store's address from the environment:
// GITNEXUS_DB_URI, with GITNEXUS_DB_USER and GITNEXUS_DB_PASSWORD filling
// in a user and password the address lacks. "" when it is not set.
func URIFromEnv() string {
	uri := os.Getenv("GITNEXUS_DB_URI")
	if uri == "" {
		return ""
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" {
		return uri // Open reports it
	}
	user, pass := os.Getenv("GITNEXUS_DB_USER"), os.Getenv("GITNEXUS_DB_PASSWORD")
	if u.User == nil && user != "" {
		if pass != "" {
			u.User = url.UserPassword(user, pass)
		} else {
			u.User = url.User(user)
		}
	} else if u.User != nil && pass != "" {
		if _, has := u.User.Password(); !has {
			u.User = url.UserPassword(u.User.Username(), pass)
		}
	}
	return u.String()
}

// Redacted is the address with its password hidden.
func Redacted(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return "(an address that does not parse)"
	}
	return u.Redacted()
}

// CheckURI says what is wrong with a store address, before connecting.
func CheckURI(uri string) error {
	u, err := url.Parse(uri)
	if err != nil {
		return fmt.Errorf("the store address does not parse: %w", err)
	}
	switch u.Scheme {
	case "postgres", "postgresql":
		return nil
	case "bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc":
		return ErrNeo4j
	case "":
		return fmt.Errorf("the store address %q has no scheme: want postgres://user:password@host:5432/database", Redacted(uri))
	}
	return fmt.Errorf("the store address's scheme %q is not supported: want postgres://user:password@host:5432/database", u.Scheme)
}

// Open connects to the store at uri and creates the schema of this index
// version when it is missing.
func Open(ctx context.Context, uri string) (*Store, error) {
	if err := CheckURI(uri); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(uri)
	if err != nil {
		return nil, fmt.Errorf("the store address %s: %w", Redacted(uri), err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "gitnexus"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the store %s: %w", Redacted(uri), err)
	}
	s := &Store{pool: pool, schema: Schema(), where: Redacted(uri)}
	if err := s.init(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// Where is the store's address, without its password.
func (s *Store) Where() string { return s.where }

func (s *Store) init(ctx context.Context) error {
	// A replica's role may only read: it creates nothing that exists.
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, s.schema+".gitnexus_repos").Scan(&exists); err != nil {
		return fmt.Errorf("connect to the store %s: %w", s.where, err)
	}
	if exists {
		return nil
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Two processes creating the schema at once would race on the
		// catalog: one at a time.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('gitnexus:schema'))`); err != nil {
			return fmt.Errorf("connect to the store %s: %w", s.where, err)
		}
		_, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+s.schema+`;
CREATE TABLE IF NOT EXISTS `+s.schema+`.gitnexus_repos (
	id          serial PRIMARY KEY,
	key         text NOT NULL UNIQUE,
	name        text NOT NULL,
	path        text NOT NULL,
	generation  bigint NOT NULL DEFAULT 0,
	schema      jsonb,
	stats       jsonb,
	indexed_at  timestamptz,
	indexed_ns  bigint NOT NULL DEFAULT 0, -- indexed_at to the nanosecond, as the index has it
	last_commit text NOT NULL DEFAULT '',
	pushed_at   timestamptz,
	pushed_from text NOT NULL DEFAULT '',
	push_id     text NOT NULL DEFAULT '' -- random, new at each push (state.go)
)`)
		if err != nil {
			return fmt.Errorf("create the store's tables in %s: %w", s.where, err)
		}
		return nil
	})
}

// table is the qualified name of an index table in the store.
func (s *Store) table(name string) string { return s.schema + "." + pgx.Identifier{name}.Sanitize() }

// RepoInfo is a repository in the store.
type RepoInfo struct {
	Key        string
	Name       string
	Path       string // where it was indexed
	Generation int64  // served; 0: never pushed completely
	IndexedAt  time.Time
	LastCommit string
	PushedAt   time.Time
	PushedFrom string
	Stats      []byte // registry.Stats as JSON
}

// Repos lists the repositories with a served generation, by key.
func (s *Store) Repos(ctx context.Context) ([]RepoInfo, error) {
	rows, err := s.pool.Query(ctx, `SELECT key, name, path, generation, indexed_ns, last_commit,
		COALESCE(pushed_at, 'epoch'), pushed_from, COALESCE(stats::text, '{}')
		FROM `+s.schema+`.gitnexus_repos WHERE generation > 0 ORDER BY key`)
	if err != nil {
		return nil, fmt.Errorf("list the store's repositories: %w", err)
	}
	defer rows.Close()
	var out []RepoInfo
	for rows.Next() {
		var r RepoInfo
		var stats string
		var ns int64
		if err := rows.Scan(&r.Key, &r.Name, &r.Path, &r.Generation, &ns, &r.LastCommit, &r.PushedAt, &r.PushedFrom, &stats); err != nil {
			return nil, err
		}
		r.IndexedAt = time.Unix(0, ns).UTC()
		r.Stats = []byte(stats)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Remove deletes a repository and its rows from the store, in one
// transaction: replicas stop listing it at their next look.
func (s *Store) Remove(ctx context.Context, key string) (bool, error) {
	var found bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('gitnexus:repo:' || $1))`, key); err != nil {
			return err
		}
		var id int32
		var sj []byte
		err := tx.QueryRow(ctx, `SELECT id, COALESCE(schema::text, 'null') FROM `+s.schema+`.gitnexus_repos WHERE key = $1`, key).Scan(&id, &sj)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		var schema store.RawSchema
		_ = json.Unmarshal(sj, &schema)
		for _, t := range schema.Tables {
			if _, err := tx.Exec(ctx, `DELETE FROM `+s.table(t.Name)+` WHERE gn_repo = $1`, id); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM `+s.schema+`.gitnexus_repos WHERE id = $1`, id); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `SELECT pg_notify('gitnexus_push', $1)`, key)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("remove %s from %s: %w", key, s.where, err)
	}
	return found, nil
}
