// Package langtest runs language fixtures: small repositories written as
// txtar-style files, indexed by the real pipeline in a temporary git work
// tree, and checked against the nodes and edges their `want` section lists.
// Every fixture's files are also resolved one at a time, each with a new
// program, and must give the edges of one resolution of all files
// (isolation.go); and every fixture's facts are edited in the ways real
// edits change them, after which resolving only the files lang.Affected
// names, with the others' edges from before, must give the edges of a
// resolution of all files (affected.go).
//
// A fixture file:
//
//	# what the case is about
//	-- go.mod --
//	module example.com/fx
//	-- main.go --
//	package main
//	...
//	-- want --
//	CALLS main.go:main -> util/util.go:Helper import-resolved
//	!CALLS main.go:main -> util/util.go:Other
//	node Method util/util.go:English.Greet
//	exact CALLS
//
// Endpoints are node ids, with or without their kind prefix ("main.go:main"
// matches "Function:main.go:main"); a bare path names the File node. An edge
// line may end with the expected reason, and after it the expected
// confidence with two decimals. `!` negates a line. `exact T`
// requires that the edges of type T are exactly the positive T lines.
package langtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// Fixture is a parsed fixture file.
type Fixture struct {
	Name    string
	Comment string
	Files   map[string]string // path → content, without the want section
	Want    []string
}

// Parse reads a fixture from its text.
func Parse(name, text string) (*Fixture, error) {
	f := &Fixture{Name: name, Files: map[string]string{}}
	var cur string
	var buf strings.Builder
	flush := func() {
		if cur == "" {
			f.Comment = buf.String()
		} else if cur == "want" {
			for _, l := range strings.Split(buf.String(), "\n") {
				l = strings.TrimSpace(l)
				if l != "" && !strings.HasPrefix(l, "#") {
					f.Want = append(f.Want, l)
				}
			}
		} else {
			f.Files[cur] = buf.String()
		}
		buf.Reset()
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") && len(line) > 6 {
			flush()
			cur = strings.TrimSpace(line[3 : len(line)-3])
			continue
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
	flush()
	if len(f.Files) == 0 {
		return nil, fmt.Errorf("fixture %s has no files", name)
	}
	return f, sc.Err()
}

// Materialize writes the fixture's files into dir and commits them with git.
func (f *Fixture) Materialize(t testing.TB, dir string) {
	t.Helper()
	for p, content := range f.Files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "fixture")
}

// Git runs git in dir with a fixed identity and fails the test on error.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// RunDir runs every *.txt fixture in dir as a subtest.
func RunDir(t *testing.T, dir string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			fx, err := Parse(name, string(b))
			if err != nil {
				t.Fatal(err)
			}
			Check(t, fx)
		})
	}
}

// Index materializes a fixture and runs the pipeline over it.
func Index(t testing.TB, fx *Fixture) *ingest.Result {
	t.Helper()
	res, _ := index(t, fx)
	return res
}

func index(t testing.TB, fx *Fixture) (*ingest.Result, []family) {
	t.Helper()
	dir := t.TempDir()
	fx.Materialize(t, dir)
	var fams []family
	res, err := ingest.Run(context.Background(), collectFamilies(dir, &fams))
	if err != nil {
		t.Fatalf("index %s: %v", fx.Name, err)
	}
	return res, fams
}

// Check indexes a fixture and verifies its want lines.
func Check(t *testing.T, fx *Fixture) {
	t.Helper()
	res, fams := index(t, fx)
	for _, fam := range fams {
		if err := checkIsolation(fam); err != nil {
			t.Errorf("%s: %v", fx.Name, err)
		}
		if st, err := checkAffected(fam); err != nil {
			t.Errorf("%s: %v", fx.Name, err)
		} else {
			t.Logf("%s: %d edits resolved only the files they affect (%d in all), %d resolved every file", fx.Name, st.checked, st.resolved, st.fallbacks)
		}
	}
	g := res.Graph
	nodes := g.Nodes()
	edges := g.Edges()
	ids := map[string]bool{}
	for _, n := range nodes {
		ids[n.ID] = true
	}
	resolve := func(ref string) (string, error) {
		if ids[ref] {
			return ref, nil
		}
		if ids["File:"+ref] {
			return "File:" + ref, nil
		}
		var found []string
		for _, n := range nodes {
			if _, rest, ok := strings.Cut(n.ID, ":"); ok && rest == ref {
				found = append(found, n.ID)
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
			return "", fmt.Errorf("no node %q", ref)
		}
		return "", fmt.Errorf("%q names several nodes: %v", ref, found)
	}
	type key struct {
		src, dst string
		typ      graph.EdgeType
	}
	have := map[key]graph.Edge{}
	for _, e := range edges {
		have[key{e.Src, e.Dst, e.Type}] = e
	}
	positives := map[graph.EdgeType]map[key]bool{}
	var exact []graph.EdgeType
	failed := false
	fail := func(format string, args ...any) {
		failed = true
		t.Errorf(format, args...)
	}
	for _, line := range fx.Want {
		neg := strings.HasPrefix(line, "!")
		body := strings.TrimPrefix(line, "!")
		fields := strings.Fields(body)
		switch {
		case len(fields) == 2 && fields[0] == "exact":
			typ := graph.ParseEdgeType(fields[1])
			if typ == graph.EdgeInvalid {
				fail("want %q: unknown edge type", line)
				continue
			}
			exact = append(exact, typ)
		case len(fields) == 3 && fields[0] == "node":
			kind := graph.ParseKind(fields[1])
			id := kind.String() + ":" + fields[2]
			if kind == graph.KindInvalid {
				fail("want %q: unknown kind", line)
			} else if ids[id] == neg {
				if neg {
					fail("unexpected node %s", id)
				} else {
					fail("missing node %s", id)
				}
			}
		case len(fields) >= 4 && len(fields) <= 6 && fields[2] == "->":
			typ := graph.ParseEdgeType(fields[0])
			if typ == graph.EdgeInvalid {
				fail("want %q: unknown edge type", line)
				continue
			}
			src, err1 := resolve(fields[1])
			dst, err2 := resolve(fields[3])
			if err1 != nil || err2 != nil {
				if neg && err1 == nil && strings.HasPrefix(err2.Error(), "no node") {
					continue // the target does not even exist
				}
				fail("want %q: %v %v", line, err1, err2)
				continue
			}
			k := key{src, dst, typ}
			e, ok := have[k]
			switch {
			case neg && ok:
				fail("unexpected %s %s -> %s [%s %.2f]", typ, src, dst, e.Reason, e.Confidence)
			case !neg && !ok:
				fail("missing %s %s -> %s", typ, src, dst)
			case !neg && len(fields) >= 5 && string(e.Reason) != fields[4]:
				fail("%s %s -> %s: reason %s, want %s", typ, src, dst, e.Reason, fields[4])
			case !neg && len(fields) == 6 && fmt.Sprintf("%.2f", e.Confidence) != fields[5]:
				fail("%s %s -> %s: confidence %.2f, want %s", typ, src, dst, e.Confidence, fields[5])
			}
			if !neg {
				if positives[typ] == nil {
					positives[typ] = map[key]bool{}
				}
				positives[typ][k] = true
			}
		default:
			fail("want %q: cannot parse", line)
		}
	}
	for _, typ := range exact {
		for _, e := range edges {
			if e.Type == typ && !positives[typ][key{e.Src, e.Dst, e.Type}] {
				fail("unexpected %s %s -> %s [%s %.2f] (exact %s)", typ, e.Src, e.Dst, e.Reason, e.Confidence, typ)
			}
		}
	}
	if failed {
		t.Logf("graph of %s:\n%s", fx.Name, Dump(g, nil))
	}
}

// Dump renders the edges of a graph (all types when types is empty), one per
// line, sorted, for failure messages and debugging.
func Dump(g *graph.Graph, types []graph.EdgeType) string {
	want := map[graph.EdgeType]bool{}
	for _, t := range types {
		want[t] = true
	}
	var lines []string
	for _, e := range g.Edges() {
		if e.Type == graph.EdgeContains || e.Type == graph.EdgeDefines {
			if len(want) == 0 || !want[e.Type] {
				continue
			}
		}
		if len(want) > 0 && !want[e.Type] {
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s %s -> %s %s %.2f", e.Type, e.Src, e.Dst, e.Reason, e.Confidence))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
