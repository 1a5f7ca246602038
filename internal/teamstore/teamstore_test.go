package teamstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
	"gitnexus.dev/gitnexus/internal/testservices"
)

// open connects to a test's PostgreSQL.
func open(t *testing.T, uri string) *Store {
	t.Helper()
	s, err := Open(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// analyze indexes root as `gitnexus analyze` does (in place when it can)
// and returns its registry entry.
func analyze(t *testing.T, root string) registry.Entry {
	t.Helper()
	opts := index.Defaults()
	opts.Version = "test"
	rep, err := index.Analyze(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := registry.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.ID == rep.Repo {
			return e
		}
	}
	t.Fatalf("%s is not in the registry", rep.Repo)
	return registry.Entry{}
}

func push(t *testing.T, s *Store, e registry.Entry, key string) *PushReport {
	t.Helper()
	rep, err := s.Push(context.Background(), e, PushOptions{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// replicaBackend serves the store as `gitnexus serve --store` does.
func replicaBackend(t *testing.T, s *Store) (*backend.Backend, *Replica) {
	t.Helper()
	r, err := s.NewReplica(context.Background(), t.TempDir(), 50*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	b, err := backend.New(backend.Options{IgnoreCwd: true, Source: r, NoWorkTree: true, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b, r
}

// answer is a tool's answer as a transport sends it, without what only a
// check of the work tree says (a replica has none).
func answer(t *testing.T, b *backend.Backend, tool string, args map[string]any) string {
	t.Helper()
	res, err := b.CallTool(context.Background(), tool, args)
	if err != nil {
		return "error: " + err.Error()
	}
	if res.Index != nil {
		idx := *res.Index
		idx.Stale, idx.Reasons, idx.Head, idx.CheckedAt, idx.CheckAgeMs, idx.CheckPending = false, nil, "", time.Time{}, 0, false
		r := *res
		r.Index = &idx
		res = &r
	}
	data, err := json.MarshalIndent(res.Structured(), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return res.Markdown() + "\n" + string(data)
}

type call struct {
	Name string         `json:"name"`
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// TestServedAsLocal: the backend's golden calls, and the history tools'
// calls that read only the index, answer the same from the store as from
// the local index.
func TestServedAsLocal(t *testing.T) {
	testrepo.Home(t)
	pg := testservices.StartPostgres(t)
	root, hashes := testrepo.HistoryShop(t)
	e := analyze(t, root)
	s := open(t, pg.URI)
	rep := push(t, s, e, "")
	if rep.Generation != 1 || rep.Sent != rep.Rows || rep.Rows == 0 || rep.Deleted != 0 || rep.Key != e.ID {
		t.Fatalf("first push: %+v", rep)
	}
	local, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	shared, replica := replicaBackend(t, s)

	raw, err := os.ReadFile(filepath.Join("..", "backend", "testdata", "golden", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var calls []call
	if err := json.Unmarshal(raw, &calls); err != nil {
		t.Fatal(err)
	}
	calls = append(calls,
		call{"list", "list_repos", map[string]any{}},
		call{"callers", "get_callers_of", map[string]any{"name": "Store.Get", "depth": 2}},
		call{"callees", "get_callees_of", map[string]any{"name": "Service.Place"}},
		call{"trace", "trace", map[string]any{"from": "main"}},
		call{"module-deps", "get_module_dependencies", map[string]any{"module": "store"}},
		call{"file-history", "get_file_history", map[string]any{"path": "store/store.go"}},
		call{"file-history-renamed", "get_file_history", map[string]any{"path": "cache/memo.go"}},
		call{"symbol-history", "get_symbol_history", map[string]any{"name": "Store.Get"}},
		call{"recent", "get_recent_changes", map[string]any{"since": "2024-01-01"}},
		call{"commit-impact", "get_commit_impact", map[string]any{"hash": hashes[1]}},
	)
	// What needs the checkout is refused, never answered otherwise.
	refused := []call{
		{"rename-dry-run", "rename", map[string]any{"symbol_name": "Store.Get", "new_name": "Fetch"}},
		{"changes", "detect_changes", map[string]any{}},
		{"symbol-history-source", "get_symbol_history", map[string]any{"name": "Store.Get", "include_source": true}},
		{"recent-branch", "get_recent_changes", map[string]any{"branch": "main"}},
		{"commit-impact-revision", "get_commit_impact", map[string]any{"hash": "HEAD~1"}},
	}
	isRefused := map[string]bool{}
	for _, c := range refused {
		isRefused[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			if got := answer(t, local, c.Tool, c.Args); strings.HasPrefix(got, "error") {
				t.Fatalf("locally: %s", got)
			}
			_, err := shared.CallTool(context.Background(), c.Tool, c.Args)
			if !errors.Is(err, backend.ErrNoWorkTree) {
				t.Errorf("from the store: %v, want ErrNoWorkTree", err)
			}
		})
	}
	for _, c := range calls {
		if isRefused[c.Name] {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			want := answer(t, local, c.Tool, c.Args)
			// A replica's index is its copy: the one path that differs.
			got := strings.ReplaceAll(answer(t, shared, c.Tool, c.Args), replica.indexDir(e.ID), e.StoragePath)
			if got != want {
				t.Errorf("%s %v from the store:\n%s\nlocally:\n%s", c.Tool, c.Args, got, want)
			}
		})
	}
}

// rows is a store's rows of a repository, table by table, as multisets of
// row hashes.
func rows(t *testing.T, s *Store, key string) map[string]map[string]int {
	t.Helper()
	ctx := context.Background()
	var id int32
	var sj []byte
	if err := s.pool.QueryRow(ctx, `SELECT id, schema::text FROM `+s.schema+`.gitnexus_repos WHERE key = $1`, key).Scan(&id, &sj); err != nil {
		t.Fatal(err)
	}
	var schema store.RawSchema
	if err := json.Unmarshal(sj, &schema); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]int{}
	for _, tb := range schema.Tables {
		m := map[string]int{}
		rs, err := s.pool.Query(ctx, `SELECT gn_h FROM `+s.table(tb.Name)+` WHERE gn_repo = $1`, id)
		if err != nil {
			t.Fatal(err)
		}
		for rs.Next() {
			var h []byte
			if err := rs.Scan(&h); err != nil {
				t.Fatal(err)
			}
			m[string(h)]++
		}
		rs.Close()
		out[tb.Name] = m
	}
	return out
}

// localRows is the same of a local index.
func localRows(t *testing.T, dir string) map[string]map[string]int {
	t.Helper()
	var d hashDump
	if _, err := store.RawDump(context.Background(), dir, &d); err != nil {
		t.Fatal(err)
	}
	return d.rows
}

type hashDump struct {
	names []string
	rows  map[string]map[string]int
	buf   []byte
}

func (d *hashDump) Schema(s store.RawSchema) error {
	d.rows = map[string]map[string]int{}
	for _, tb := range s.Tables {
		d.names = append(d.names, tb.Name)
		d.rows[tb.Name] = map[string]int{}
	}
	return nil
}

func (d *hashDump) Row(ti int, vals []any) error {
	d.buf = encodeRow(d.buf[:0], vals)
	h := hashOf(d.buf)
	d.rows[d.names[ti]][string(h[:])]++
	return nil
}

// diffRows counts the rows of b that a lacks and the rows of a that b
// lacks, as multisets.
func diffRows(a, b map[string]map[string]int) (gained, lost int64) {
	for tb, hs := range b {
		for h, n := range hs {
			gained += int64(max(0, n-a[tb][h]))
		}
	}
	for tb, hs := range a {
		for h, n := range hs {
			lost += int64(max(0, n-b[tb][h]))
		}
	}
	return gained, lost
}

func sameRows(t *testing.T, what string, got, want map[string]map[string]int) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		g, w := got[n], want[n]
		missing, extra := 0, 0
		for h, c := range w {
			if g[h] < c {
				missing += c - g[h]
			}
		}
		for h, c := range g {
			if w[h] < c {
				extra += c - w[h]
			}
		}
		if missing+extra > 0 {
			t.Errorf("%s: table %s: %d rows missing, %d rows too many", what, n, missing, extra)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d tables, want %d", what, len(got), len(want))
	}
}

// TestIncrementalPushes: after each of a random sequence of edits (files
// and functions added, changed, deleted and renamed, text that is not
// UTF-8), committed, analyzed in place and pushed, the store holds exactly
// the local index, as a fresh push of it does, having sent a part of the
// rows; and a replica's copy equals it too.
func TestIncrementalPushes(t *testing.T) {
	testrepo.Home(t)
	pg := testservices.StartPostgres(t)
	s := open(t, pg.URI)
	root := filepath.Join(t.TempDir(), "edits")
	testrepo.EditHistory(t, root, 3)
	e := analyze(t, root)
	first := push(t, s, e, "edits")
	_, r := replicaBackend(t, s)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := mathrand.New(mathrand.NewPCG(uint64(seed), 7))
	files := map[string][]string{} // our files and their functions
	write := func(name string) {
		var b strings.Builder
		b.WriteString("package main\n")
		for i, f := range files[name] {
			callee := "F1"
			if i > 0 {
				callee = files[name][i-1]
			}
			fmt.Fprintf(&b, "\n// %s does step %d.\nfunc %s() int { return %s() + %d }\n", f, rng.IntN(100), f, callee, rng.IntN(9))
		}
		if rng.IntN(4) == 0 {
			b.WriteString("\n// caf\xe9, not UTF-8\n")
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func() []string {
		var out []string
		for n := range files {
			out = append(out, n)
		}
		sort.Strings(out)
		return out
	}
	fn := 0
	prev := localRows(t, e.StoragePath)
	for step := 0; step < 6; step++ {
		for op := 0; op < 1+rng.IntN(3); op++ {
			ns := names()
			switch k := rng.IntN(5); {
			case k == 0 || len(ns) == 0: // a new file
				name := fmt.Sprintf("x%d.go", fn)
				for i := 0; i <= rng.IntN(3); i++ {
					fn++
					files[name] = append(files[name], fmt.Sprintf("X%d", fn))
				}
				write(name)
			case k == 1: // a function added
				name := ns[rng.IntN(len(ns))]
				fn++
				files[name] = append(files[name], fmt.Sprintf("X%d", fn))
				write(name)
			case k == 2: // bodies and docs changed
				write(ns[rng.IntN(len(ns))])
			case k == 3: // a file deleted
				name := ns[rng.IntN(len(ns))]
				delete(files, name)
				if err := os.Remove(filepath.Join(root, name)); err != nil {
					t.Fatal(err)
				}
			default: // a file renamed
				name := ns[rng.IntN(len(ns))]
				fn++
				to := fmt.Sprintf("r%d.go", fn)
				if err := os.Rename(filepath.Join(root, name), filepath.Join(root, to)); err != nil {
					t.Fatal(err)
				}
				files[to] = files[name]
				delete(files, name)
			}
		}
		testrepo.Git(t, root, "add", "-A")
		testrepo.CommitAt(t, root, fmt.Sprintf("2025-02-%02d", step+1), "commit", "-q", "--allow-empty", "-m", fmt.Sprintf("edit %d", step))
		e = analyze(t, root)
		rep := push(t, s, e, "edits")
		if rep.Generation != first.Generation+int64(step)+1 {
			t.Errorf("edit %d: generation %d", step, rep.Generation)
		}
		want := localRows(t, e.StoragePath)
		// Exactly the rows that differ travel: those the index gained
		// are sent, those it lost deleted.
		gained, lost := diffRows(prev, want)
		if rep.Sent != gained || rep.Deleted != lost {
			t.Errorf("edit %d: sent %d and deleted %d rows, the index gained %d and lost %d", step, rep.Sent, rep.Deleted, gained, lost)
		}
		prev = want
		sameRows(t, fmt.Sprintf("edit %d, incremental", step), rows(t, s, "edits"), want)
		fresh := push(t, s, e, fmt.Sprintf("fresh-%d", step))
		if fresh.Sent != fresh.Rows {
			t.Errorf("a fresh push sent %d of %d rows", fresh.Sent, fresh.Rows)
		}
		sameRows(t, fmt.Sprintf("edit %d, fresh", step), rows(t, s, fmt.Sprintf("fresh-%d", step)), want)
		if _, err := r.copyRepo(context.Background(), "edits", r.localGeneration("edits")); err != nil {
			t.Fatal(err)
		}
		sameRows(t, fmt.Sprintf("edit %d, replica", step), localRows(t, r.indexDir("edits")), want)
	}
	// Pushing an unchanged index makes no generation.
	if rep := push(t, s, e, "edits"); !rep.Unchanged || rep.Sent != 0 {
		t.Errorf("a push of the same index: %+v", rep)
	}
	// Another pusher of the key (the state file of this one is outdated
	// then): the next push from here still leaves the store equal to the
	// index.
	other := filepath.Join(t.TempDir(), "other")
	testrepo.New(t, other, testrepo.Shop)
	push(t, s, analyze(t, other), "edits")
	push(t, s, e, "edits")
	sameRows(t, "after another pusher", rows(t, s, "edits"), localRows(t, e.StoragePath))
}

// TestPushInterrupted: PostgreSQL killed, or stopped, in the middle of a
// push: the previous generation is still served, whole, and the next push
// completes.
func TestPushInterrupted(t *testing.T) {
	for _, how := range []string{"kill", "stop"} {
		t.Run(how, func(t *testing.T) {
			testrepo.Home(t)
			pg := testservices.StartPostgres(t)
			s := open(t, pg.URI)
			root := filepath.Join(t.TempDir(), "shop")
			testrepo.New(t, root, testrepo.Shop)
			e := analyze(t, root)
			before := localRows(t, e.StoragePath)
			push(t, s, e, "shop")
			testrepo.Write(t, root, map[string]string{"store/extra.go": "package store\n\n// Extra is new.\nfunc Extra() int { return 1 }\n"})
			e = analyze(t, root)
			var once sync.Once
			// At the first row sent: the transaction is open, the new
			// generation not committed.
			_, err := s.Push(context.Background(), e, PushOptions{Key: "shop", afterSent: func(n int64) {
				once.Do(func() {
					if how == "kill" {
						pg.Kill()
					} else {
						pg.Stop() // fast shutdown: sessions end, their work rolled back
					}
				})
			}})
			if err == nil {
				t.Fatal("the push went through with the server gone")
			}
			pg.Start()
			s2 := open(t, pg.URI)
			sameRows(t, "after the interrupted push", rows(t, s2, "shop"), before)
			b, r := replicaBackend(t, s2)
			if got := answer(t, b, "context", map[string]any{"name": "Extra"}); !strings.Contains(got, "No symbol") && !strings.Contains(got, "not found") && !strings.HasPrefix(got, "error") {
				t.Errorf("the previous generation knows Extra:\n%s", got)
			}
			rep := push(t, s2, e, "shop")
			if rep.Generation != 2 {
				t.Errorf("the next push made generation %d", rep.Generation)
			}
			sameRows(t, "after the next push", rows(t, s2, "shop"), localRows(t, e.StoragePath))
			deadline := time.Now().Add(10 * time.Second)
			for r.localGeneration("shop") != 2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if got := answer(t, b, "context", map[string]any{"name": "Extra"}); !strings.Contains(got, "store/extra.go") {
				t.Errorf("the replica does not serve the new generation:\n%s", got)
			}
		})
	}
}

// TestReplicasDuringPushes: two replicas answer while pushes alternate two
// versions of a repository; every answer comes from one generation: its
// symbols are those of the build its index object names.
func TestReplicasDuringPushes(t *testing.T) {
	testrepo.Home(t)
	pg := testservices.StartPostgres(t)
	s := open(t, pg.URI)
	a := filepath.Join(t.TempDir(), "a", "shop")
	testrepo.New(t, a, testrepo.Shop)
	ea := analyze(t, a)
	b := filepath.Join(t.TempDir(), "b", "shop")
	testrepo.New(t, b, testrepo.Shop)
	testrepo.Write(t, b, map[string]string{"store/extra.go": "package store\n\nfunc Extra1() {}\nfunc Extra2() {}\nfunc Extra3() {}\n"})
	eb := analyze(t, b)
	push(t, s, ea, "shop")
	count := map[string]int{} // functions, by the build's time
	for _, e := range []registry.Entry{ea, eb} {
		r, err := store.OpenRepo(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		count[r.Meta().IndexedAt.UTC().Format(time.RFC3339Nano)] = -1
		r.Close()
	}
	var backends []*backend.Backend
	for i := 0; i < 2; i++ {
		bk, _ := replicaBackend(t, s)
		backends = append(backends, bk)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var answers, failures atomic.Int64
	var mu sync.Mutex
	seen := map[string]map[int]bool{}
	for _, bk := range backends {
		for c := 0; c < 2; c++ {
			wg.Add(1)
			go func(bk *backend.Backend) {
				defer wg.Done()
				for ctx.Err() == nil {
					res, err := bk.CallTool(context.Background(), "cypher", map[string]any{"query": "MATCH (f:Function) RETURN count(f) AS n"})
					if err != nil {
						failures.Add(1)
						t.Errorf("call: %v", err)
						return
					}
					m := countRe.FindStringSubmatch(res.Markdown())
					if m == nil || res.Index == nil {
						t.Errorf("answer %s", res.Markdown())
						return
					}
					n, _ := strconv.Atoi(m[1])
					at := res.Index.IndexedAt.UTC().Format(time.RFC3339Nano)
					mu.Lock()
					if seen[at] == nil {
						seen[at] = map[int]bool{}
					}
					seen[at][n] = true
					mu.Unlock()
					answers.Add(1)
				}
			}(bk)
		}
	}
	pushes := 0
	for ctx.Err() == nil {
		e := eb
		if pushes%2 == 1 {
			e = ea
		}
		if _, err := s.Push(context.Background(), e, PushOptions{Key: "shop"}); err != nil {
			t.Fatal(err)
		}
		pushes++
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	if failures.Load() > 0 || answers.Load() == 0 {
		t.Fatalf("%d answers, %d failures", answers.Load(), failures.Load())
	}
	for at, ns := range seen {
		if _, ok := count[at]; !ok {
			t.Errorf("an answer from a build neither version made: %s", at)
		}
		if len(ns) != 1 {
			t.Errorf("answers from the build of %s count different numbers of functions: %v", at, ns)
		}
	}
	if len(seen) < 2 {
		t.Errorf("the replicas served %d generations in %d pushes", len(seen), pushes)
	}
	t.Logf("%d answers over %d pushes", answers.Load(), pushes)
}

var countRe = regexp.MustCompile(`\| (\d+) \|`)

func TestCheckURI(t *testing.T) {
	for _, c := range []struct {
		uri  string
		want string
	}{
		{"postgres://u:p@db:5432/g", ""},
		{"postgresql://db/g", ""},
		{"bolt://neo4j:7687", "gitnexus export --format neo4j"},
		{"neo4j://neo4j:7687", "gitnexus export --format neo4j"},
		{"mysql://db/g", "not supported"},
		{"db:5432", "not supported"},
	} {
		err := CheckURI(c.uri)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.uri, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.uri, err, c.want)
		}
	}
	if !errors.Is(CheckURI("bolt://x"), ErrNeo4j) {
		t.Error("bolt:// is not ErrNeo4j")
	}
}

func TestURIFromEnv(t *testing.T) {
	t.Setenv("GITNEXUS_DB_URI", "postgres://db:5432/g")
	t.Setenv("GITNEXUS_DB_USER", "team")
	t.Setenv("GITNEXUS_DB_PASSWORD", "s3cret")
	if got := URIFromEnv(); got != "postgres://team:s3cret@db:5432/g" {
		t.Errorf("URIFromEnv = %s", got)
	}
	if got := Redacted(URIFromEnv()); strings.Contains(got, "s3cret") {
		t.Errorf("Redacted = %s", got)
	}
}
