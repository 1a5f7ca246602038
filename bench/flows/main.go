// Command flows measures community detection and process tracing on a real
// repository: it indexes the repository once (in memory, nothing is
// written), then runs the enrichment with each setting asked for and
// prints community count, size distribution, modularity, process count and
// time; -sample prints processes with the line of every call for checking
// by hand.
//
//	go run -tags sqlite_fts5 ./bench/flows -repo DIR [-resolution 0,1,2] [-hub 0,40,-1] [-sample 10]
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/enrich"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
)

func main() {
	repo := flag.String("repo", "", "repository to index")
	resolutions := flag.String("resolution", "0", "comma-separated resolutions to try (0: automatic, the default)")
	hubs := flag.String("hub", "0", "comma-separated hub degrees to try (0: default, -1: no damping)")
	largest := flag.Int("largest", 0, "list this many largest communities per setting")
	sample := flag.Int("sample", 0, "print this many processes of the default setting, chosen at random (seed 1), with call lines")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "flows: -repo is required")
		os.Exit(2)
	}
	ctx := context.Background()
	start := time.Now()
	res, err := ingest.Run(ctx, ingest.Options{Root: *repo})
	if err != nil {
		fmt.Fprintln(os.Stderr, "flows:", err)
		os.Exit(1)
	}
	fmt.Printf("repo %s: %d nodes, %d edges, indexed in %.1fs\n", *repo, res.Graph.NodeCount(), res.Graph.EdgeCount(),
		time.Since(start).Seconds())
	fmt.Println("resolution 0: automatic; hub degree 0: the default, -1: no damping")
	fmt.Println("| resolution | hub degree | communities (≥2) | largest | p50 | p90 | symbols in communities | Q (γ=1) | processes (entries, traces) | intra-community | mean steps | communities s | processes s |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range floats(*resolutions) {
		for _, h := range floats(*hubs) {
			g := res.Graph.Copy() // each setting starts from the resolved graph alone
			st, err := enrich.Run(ctx, g, enrich.Options{Resolution: r, HubDegree: int(h)})
			if err != nil {
				fmt.Fprintln(os.Stderr, "flows:", err)
				os.Exit(1)
			}
			var sizes []int
			total := 0
			for _, c := range g.Flows().Communities {
				sizes = append(sizes, c.SymbolCount)
				total += c.SymbolCount
			}
			slices.Sort(sizes)
			intra, steps := 0, 0
			for _, p := range g.Flows().Processes {
				if p.Type == graph.ProcessIntraCommunity {
					intra++
				}
				steps += len(p.Steps)
			}
			mean := 0.0
			if n := len(g.Flows().Processes); n > 0 {
				mean = float64(steps) / float64(n)
			}
			fmt.Printf("| %g | %d | %d | %d | %d | %d | %d of %d | %.3f | %d (%d, %d) | %d | %.1f | %.2f | %.2f |\n", r, int(h), len(sizes),
				pct(sizes, 1), pct(sizes, 0.5), pct(sizes, 0.9), total, st.CommunityNodes, st.Modularity, st.Processes,
				st.EntryPoints, st.Traces, intra, mean, float64(st.CommunityMillis)/1000, float64(st.ProcessMillis)/1000)
			for i, c := range g.Flows().Communities {
				if i >= *largest {
					break
				}
				fmt.Printf("    %s: %d symbols, cohesion %.2f, keywords %s\n", c.Label, c.SymbolCount, c.Cohesion, strings.Join(c.Keywords, " "))
			}
			if *sample > 0 && r == 0 && h == 0 {
				printSample(g, *repo, *sample)
			}
		}
	}
}

func floats(s string) []float64 {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "flows: bad number", f)
			os.Exit(2)
		}
		out = append(out, v)
	}
	return out
}

func pct(sorted []int, p float64) int {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

// printSample prints n processes chosen at random: every step with its
// file and line, the line where it calls the next step and that line of
// the source, marked "name ok" when it contains the next step's name
// (a check of the text only: whether the name means that symbol is for
// the reader to judge).
func printSample(g *graph.Graph, root string, n int) {
	procs := g.Flows().Processes
	rng := rand.New(rand.NewSource(1))
	idx := rng.Perm(len(procs))
	if len(idx) > n {
		idx = idx[:n]
	}
	slices.Sort(idx)
	calls := map[[2]string]int{}
	for _, e := range g.Edges() {
		if e.Type == graph.EdgeCalls {
			calls[[2]string{e.Src, e.Dst}] = e.Line
		}
	}
	for _, i := range idx {
		p := procs[i]
		fmt.Printf("\nprocess %d: %s (%s, %d steps)\n", i, p.Label, p.Type, len(p.Steps))
		for k, s := range p.Steps {
			nd, _ := g.Node(s)
			site := ""
			if k+1 < len(p.Steps) {
				line := calls[[2]string{s, p.Steps[k+1]}]
				next, _ := g.Node(p.Steps[k+1])
				text := sourceLine(root, nd.FilePath, line)
				mark := "NAME MISSING"
				for _, name := range callNames(&next) {
					if strings.Contains(text, name) {
						mark = "name ok"
					}
				}
				site = fmt.Sprintf("\n       line %d: %s   [%s]", line, strings.TrimSpace(text), mark)
			}
			fmt.Printf("  %d. %s  %s:%d%s\n", k+1, nd.ID, nd.FilePath, nd.StartLine, site)
		}
	}
}

// sourceLine returns line n (1-based) of a repository file, "" when it
// cannot be read.
func sourceLine(root, file string, n int) string {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil || n <= 0 {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// callNames are the texts a call of n may be written with: its name; for
// a constructor also its class's name, this( and super(.
func callNames(n *graph.Node) []string {
	names := []string{n.Name}
	if n.Kind == graph.KindConstructor {
		q := n.ID[strings.LastIndexByte(n.ID, ':')+1:]
		if i := strings.IndexByte(q, '('); i >= 0 {
			q = q[:i]
		}
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			q = q[:i]
		}
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			q = q[i+1:]
		}
		names = append(names, q, "this(", "super(")
	}
	return names
}
