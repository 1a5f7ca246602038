package enrich_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/enrich"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// Fixtures in testdata/*.txt are small repositories of known structure,
// indexed by the real pipeline (which runs enrich.Run). Their want lines:
//
//	community LABEL: ID ID ...     the community named LABEL has exactly these members
//	together ID ID ...             these symbols share one community
//	apart ID ID                    these two symbols are not in one community
//	process ID > ID > ID [TYPE]    a process has exactly these steps (and type)
//	label LABEL                    a process has this label
//	exact processes                the processes are exactly the listed ones
//	exact communities              the communities are exactly the listed ones
//
// IDs may leave out their kind ("api/h.go:Handle").
func TestFixtures(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fx := readFixture(t, p)
			res := langtest.Index(t, fx)
			checkFlows(t, res.Graph, fx.Want)
		})
	}
}

func readFixture(t *testing.T, p string) *langtest.Fixture {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := langtest.Parse(filepath.Base(p), string(b))
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// flowsView is what the fixtures check: communities by label with their
// members, processes as step lists.
type flowsView struct {
	members   map[string][]string // label -> member ids, sorted
	of        map[string]string   // member id -> label
	processes []string            // "a > b > c [type]"
	labels    map[string]bool     // process labels
}

func viewOf(g *graph.Graph) flowsView {
	fv := flowsView{members: map[string][]string{}, of: map[string]string{}, labels: map[string]bool{}}
	f := g.Flows()
	if f == nil {
		return fv
	}
	labels := map[string]string{}
	for _, c := range f.Communities {
		labels[c.ID] = c.Label
	}
	for _, e := range g.Edges() {
		if e.Type == graph.EdgeMemberOf {
			l := labels[e.Dst]
			fv.members[l] = append(fv.members[l], e.Src)
			fv.of[e.Src] = l
		}
	}
	for _, p := range f.Processes {
		fv.processes = append(fv.processes, strings.Join(p.Steps, " > ")+" ["+p.Type+"]")
		fv.labels[p.Label] = true
	}
	slices.Sort(fv.processes)
	return fv
}

func checkFlows(t *testing.T, g *graph.Graph, want []string) {
	t.Helper()
	fv := viewOf(g)
	ids := map[string]string{} // short id -> full id
	for _, n := range g.Nodes() {
		ids[n.ID] = n.ID
		if k := strings.IndexByte(n.ID, ':'); k > 0 {
			ids[n.ID[k+1:]] = n.ID
		}
	}
	full := func(s string) string {
		if id, ok := ids[s]; ok {
			return id
		}
		t.Errorf("no node %q", s)
		return s
	}
	var wantProcs, wantComms []string
	exactProcs, exactComms := false, false
	for _, line := range want {
		switch {
		case line == "exact processes":
			exactProcs = true
		case line == "exact communities":
			exactComms = true
		case strings.HasPrefix(line, "community "):
			label, list, _ := strings.Cut(strings.TrimPrefix(line, "community "), ":")
			var ms []string
			for _, s := range strings.Fields(list) {
				ms = append(ms, full(s))
			}
			slices.Sort(ms)
			got := slices.Clone(fv.members[label])
			slices.Sort(got)
			if !reflect.DeepEqual(got, ms) {
				t.Errorf("community %q: got members %v, want %v", label, got, ms)
			}
			wantComms = append(wantComms, label)
		case strings.HasPrefix(line, "label "):
			if l := strings.TrimPrefix(line, "label "); !fv.labels[l] {
				t.Errorf("no process labelled %q; labels: %v", l, fv.labels)
			}
		case strings.HasPrefix(line, "together "):
			fs := strings.Fields(strings.TrimPrefix(line, "together "))
			first := fv.of[full(fs[0])]
			for _, s := range fs[1:] {
				if l := fv.of[full(s)]; l == "" || l != first {
					t.Errorf("%s is in community %q, %s in %q: want them together", fs[0], first, s, l)
				}
			}
		case strings.HasPrefix(line, "apart "):
			fs := strings.Fields(strings.TrimPrefix(line, "apart "))
			a, b := fv.of[full(fs[0])], fv.of[full(fs[1])]
			if a != "" && a == b {
				t.Errorf("%s and %s are both in community %q: want them apart", fs[0], fs[1], a)
			}
		case strings.HasPrefix(line, "process "):
			body := strings.TrimPrefix(line, "process ")
			typ := ""
			if k := strings.IndexByte(body, '['); k >= 0 {
				typ = strings.TrimSuffix(strings.TrimSpace(body[k+1:]), "]")
				body = body[:k]
			}
			var steps []string
			for _, s := range strings.Split(body, ">") {
				steps = append(steps, full(strings.TrimSpace(s)))
			}
			p := strings.Join(steps, " > ")
			found := false
			for _, gp := range fv.processes {
				if strings.HasPrefix(gp, p+" [") && (typ == "" || gp == p+" ["+typ+"]") {
					found = true
					wantProcs = append(wantProcs, gp)
				}
			}
			if !found {
				t.Errorf("no process %s [%s]; processes:\n%s", p, typ, strings.Join(fv.processes, "\n"))
			}
		default:
			t.Errorf("unknown want line %q", line)
		}
	}
	if exactProcs {
		slices.Sort(wantProcs)
		if !reflect.DeepEqual(wantProcs, fv.processes) {
			t.Errorf("processes:\n%s\nwant exactly:\n%s", strings.Join(fv.processes, "\n"), strings.Join(wantProcs, "\n"))
		}
	}
	if exactComms {
		var got []string
		for l := range fv.members {
			got = append(got, l)
		}
		slices.Sort(got)
		slices.Sort(wantComms)
		if !reflect.DeepEqual(got, wantComms) {
			t.Errorf("communities %v, want exactly %v", got, wantComms)
		}
	}
	if t.Failed() {
		t.Logf("communities: %v", fmt.Sprint(fv.members))
	}
}

// TestDeterministic indexes the same repository twice: communities,
// processes and every enrichment edge must be identical.
func TestDeterministic(t *testing.T) {
	fx := readFixture(t, "testdata/layered.txt")
	dump := func() string {
		res := langtest.Index(t, fx)
		var b strings.Builder
		f := res.Graph.Flows()
		fmt.Fprintf(&b, "%+v\n", *f)
		for _, e := range res.Graph.Edges() {
			if e.Type == graph.EdgeMemberOf || e.Type == graph.EdgeStepInProcess || e.Type == graph.EdgeEntryPointOf {
				fmt.Fprintf(&b, "%+v\n", e)
			}
		}
		return b.String()
	}
	a, b := dump(), dump()
	if a != b {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a, b)
	}
	if !strings.Contains(a, "STEP") && !strings.Contains(a, "Process:") {
		t.Fatalf("the fixture has no processes:\n%s", a)
	}
}

// TestCancel: a cancelled context stops the enrichment with its error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := graph.New()
	g.AddNode(graph.Node{ID: "Function:a.go:f", Kind: graph.KindFunction, Name: "f"})
	if _, err := enrich.Run(ctx, g, enrich.Options{}); err == nil {
		t.Fatal("Run on a cancelled context returned no error")
	}
}
