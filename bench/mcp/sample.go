package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Symbol is one sampled question: a function or method by its simple name,
// where our index says it is, and the words a query about it uses.
type Symbol struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	UID   string `json:"uid"`
	Query string `json:"query"`
}

// Sample is the fixed set of questions both servers answer.
type Sample struct {
	Index      string   `json:"index"`      // repository whose index the sample was drawn from
	Commit     string   `json:"commit"`     // the commit that index was built at
	Seed       uint64   `json:"seed"`       // seed of the draw
	Candidates int      `json:"candidates"` // symbols eligible for the draw
	Warmup     Symbol   `json:"warmup"`     // the first, unmeasured call of each tool
	Symbols    []Symbol `json:"symbols"`
}

func sampleCmd(args []string) error {
	fs := flag.NewFlagSet("sample", flag.ExitOnError)
	index := fs.String("index", "", "repository indexed by `gitnexus analyze` (its .gitnexus/graph.db is read)")
	n := fs.Int("n", 200, "symbols to sample (plus one for the warm-up)")
	seed := fs.Uint64("seed", 1, "seed of the draw")
	out := fs.String("o", "", "write the sample to this file (JSON)")
	fs.Parse(args)
	if *index == "" || *out == "" || fs.NArg() > 0 {
		return fmt.Errorf("sample needs -index and -o (and no other arguments)")
	}
	s, err := drawSample(context.Background(), *index, *n, *seed)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the sample: %w", err)
	}
	fmt.Fprintf(os.Stderr, "sampled %d of %d eligible symbols (seed %d) into %s\n", len(s.Symbols), s.Candidates, *seed, *out)
	return nil
}

// drawSample loads the repository's graph and draws n+1 symbols: functions
// and methods outside tests whose simple name no other node of the graph
// has, so that the name alone is an unambiguous question.
func drawSample(ctx context.Context, repo string, n int, seed uint64) (*Sample, error) {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	r, err := store.OpenRepo(repo)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("load the graph of %s: %w", repo, err)
	}
	var eligible []memgraph.NodeID
	for i := range g.Nodes {
		id := memgraph.NodeID(i)
		nd := &g.Nodes[i]
		if nd.Kind != graph.KindFunction && nd.Kind != graph.KindMethod {
			continue
		}
		if analysis.IsTestPath(nd.FilePath) || !isIdentifier(nd.Name) {
			continue
		}
		if len(g.ByName(nd.Name)) != 1 || len(g.Find(nd.Name)) != 1 {
			continue
		}
		eligible = append(eligible, id)
	}
	if len(eligible) < n+1 {
		return nil, fmt.Errorf("only %d eligible symbols in %s, %d asked for", len(eligible), repo, n+1)
	}
	// Node order follows the index; sort by id so the draw depends only on
	// what is indexed, then shuffle with the seed.
	sort.Slice(eligible, func(a, b int) bool { return g.Nodes[eligible[a]].ID < g.Nodes[eligible[b]].ID })
	rng := rand.New(rand.NewPCG(seed, 0x6d6370))
	rng.Shuffle(len(eligible), func(a, b int) { eligible[a], eligible[b] = eligible[b], eligible[a] })
	picked := eligible[:n+1]
	syms := make([]Symbol, len(picked))
	for i, id := range picked {
		nd := &g.Nodes[id]
		syms[i] = Symbol{Name: nd.Name, Kind: nd.Kind.String(), File: nd.FilePath, Line: int(nd.StartLine),
			UID: nd.ID, Query: queryWords(nd.Name, nd.FilePath)}
	}
	return &Sample{Index: repo, Commit: r.Meta().IndexedCommit, Seed: seed, Candidates: len(eligible),
		Warmup: syms[0], Symbols: syms[1:]}, nil
}

// queryWords turns an identifier into the words an agent would search for:
// "parseConfigFile" -> "parse config file". A one-word name gets the name of
// its directory (the Go package) as context: "Atoi" in strconv/atoi.go ->
// "atoi strconv".
func queryWords(name, file string) string {
	words := splitIdentifier(name)
	if len(words) < 2 {
		if dir := path.Base(path.Dir(file)); dir != "." && dir != "/" {
			words = append(words, splitIdentifier(dir)...)
		}
	}
	return strings.Join(words, " ")
}

// splitIdentifier splits an identifier into lower-case words at case
// changes (fooBar, HTTPServer -> http server), digits and underscores, each
// word once.
func splitIdentifier(s string) []string {
	var words []string
	rs := []rune(s)
	start := 0
	seen := map[string]bool{}
	flush := func(end int) {
		if end > start {
			w := strings.ToLower(string(rs[start:end]))
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		prev := rs[i-1]
		lowerToUpper := unicode.IsUpper(r) && unicode.IsLower(prev)
		acronymEnd := unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		digitEdge := unicode.IsDigit(r) != unicode.IsDigit(prev)
		if lowerToUpper || acronymEnd || digitEdge {
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return words
}

func isIdentifier(s string) bool {
	if s == "" || s == "_" {
		return false
	}
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
