// Package testrepo builds the fixture repositories tests run against: real
// files committed with real git, indexed by the real pipeline and
// registered in a registry of the test's own. Only tests import it.
package testrepo

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// Home gives the test a registry of its own ($GITNEXUS_HOME).
func Home(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("GITNEXUS_HOME", home)
	return home
}

// Write writes files (slash-separated paths) under dir, creating it.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// New writes files under dir and commits them in a new repository on
// branch main. It returns dir.
func New(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	Write(t, dir, files)
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

// Git runs git in dir with a fixed identity and no user configuration,
// and returns its trimmed output.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Index analyzes root and registers it, as `gitnexus analyze` does.
func Index(t testing.TB, root string) registry.Entry {
	t.Helper()
	return IndexWith(t, ingest.Options{Root: root, MaxFileSize: 512 << 10})
}

// IndexWith is Index with the pipeline's options (opts.Root is the
// repository).
func IndexWith(t testing.TB, opts ingest.Options) registry.Entry {
	t.Helper()
	ctx := context.Background()
	root := opts.Root
	res, err := ingest.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	commit := ""
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		commit = Git(t, root, "rev-parse", "HEAD")
	}
	now := time.Now().UTC()
	if _, err := store.WriteWithVectors(ctx, root, res.Graph, res.Vectors, store.Meta{RepoPath: root, IndexedCommit: commit, IndexedAt: now}); err != nil {
		t.Fatal(err)
	}
	sum := ingest.Summarize(res)
	e, err := registry.Upsert(registry.Entry{Name: filepath.Base(root), Path: root, StoragePath: store.Dir(root),
		IndexedAt: now, LastCommit: commit,
		Stats: registry.Stats{Files: sum.Files, Nodes: sum.Nodes, Edges: sum.Edges, Functions: sum.Functions,
			Communities: sum.Flows.Communities, Processes: sum.Flows.Processes}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Shop is a small Go module: a store, an order service using it (two
// calls of Store.Get from one method), a cache with its own Get (a homonym
// that renames and impacts must leave alone), a command and a test.
var Shop = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"store/store.go": `// Package store keeps items.
package store

import "errors"

// Item is one thing for sale.
type Item struct {
	ID    int
	Price int
}

// ErrMissing is returned for an unknown id.
var ErrMissing = errors.New("missing")

// Store holds items by id.
type Store struct {
	items map[int]*Item
}

// New returns an empty store.
func New() *Store {
	return &Store{items: map[int]*Item{}}
}

// Get returns the item with id.
func (s *Store) Get(id int) (*Item, error) {
	it, ok := s.items[id]
	if !ok {
		return nil, ErrMissing
	}
	return it, nil
}

// Put stores an item.
func (s *Store) Put(it *Item) {
	s.items[it.ID] = it
}
`,
	"order/order.go": `// Package order places orders.
package order

import "example.com/shop/store"

// Service places orders against a store.
type Service struct {
	st *store.Store
}

// NewService returns a service over st.
func NewService(st *store.Store) *Service {
	return &Service{st: st}
}

// Place checks both items and returns the total price.
func (o *Service) Place(a, b int) (int, error) {
	x, err := o.st.Get(a)
	if err != nil {
		return 0, err
	}
	y, err := o.st.Get(b)
	if err != nil {
		return 0, err
	}
	return x.Price + y.Price, nil
}
`,
	"order/order_test.go": `package order

import (
	"testing"

	"example.com/shop/store"
)

func TestPlace(t *testing.T) {
	st := store.New()
	st.Put(&store.Item{ID: 1, Price: 2})
	if _, err := NewService(st).Place(1, 1); err != nil {
		t.Fatal(err)
	}
}
`,
	"cache/cache.go": `// Package cache remembers strings.
package cache

// Cache maps keys to values.
type Cache struct {
	m map[string]string
}

// Get returns the value of k.
func (c *Cache) Get(k string) string {
	return c.m[k]
}

// Warm fills the cache.
func Warm(c *Cache) string {
	return c.Get("warm")
}
`,
	"cmd/shop/main.go": `package main

import (
	"fmt"

	"example.com/shop/cache"
	"example.com/shop/order"
	"example.com/shop/store"
)

func main() {
	st := store.New()
	st.Put(&store.Item{ID: 1, Price: 3})
	total, err := order.NewService(st).Place(1, 1)
	fmt.Println(total, err, cache.Warm(&cache.Cache{}))
}
`,
}

// Load opens the index of the repository at repo and loads its graph the
// way the tools do; the reader is closed when the test ends.
func Load(t testing.TB, repo string) (*store.Reader, *memgraph.Graph) {
	t.Helper()
	r, err := store.OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	g, err := memgraph.Load(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return r, g
}

// Rows runs a query and returns its rows, each printed as a list of its
// values ("[a b 1]"), sorted: for comparing what two indexes answer.
func Rows(t testing.TB, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
