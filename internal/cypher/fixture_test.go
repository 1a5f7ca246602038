package cypher_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// A fixture is a graph written to a real store and loaded back, so that
// queries run exactly as they do on an index: the in-memory graph for
// structure, the store for doc and content.
type fixture struct {
	g      *memgraph.Graph
	engine *cypher.Engine
}

var (
	fixturesMu  sync.Mutex
	fixtures    = map[string]*fixture{}
	fixtureDirs []string
	readers     []*store.Reader
)

// TestMain removes the fixtures' indexes after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, r := range readers {
		r.Close()
	}
	for _, d := range fixtureDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// loadFixture returns a named fixture: testdata/graphs/<name>.graph (a
// graph written by hand) or, for "repo:<name>", testdata/repos/<name>.txt
// (a tiny repository indexed by the real pipeline).
func loadFixture(t testing.TB, name string) *fixture {
	t.Helper()
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f, ok := fixtures[name]; ok {
		return f
	}
	var g *graph.Graph
	if repo, ok := strings.CutPrefix(name, "repo:"); ok {
		b, err := os.ReadFile(filepath.Join("testdata", "repos", repo+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		fx, err := langtest.Parse(repo, string(b))
		if err != nil {
			t.Fatal(err)
		}
		g = langtest.Index(t, fx).Graph
	} else {
		var err error
		if g, err = readGraphFile(filepath.Join("testdata", "graphs", name+".graph")); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := os.MkdirTemp("", "cypher-fixture-")
	if err != nil {
		t.Fatal(err)
	}
	fixtureDirs = append(fixtureDirs, dir)
	if _, err := store.Write(context.Background(), dir, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	readers = append(readers, r)
	mg, err := memgraph.Load(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	// The reader stays open for the whole test binary: queries read doc
	// and content through it.
	f := &fixture{g: mg, engine: cypher.New(mg, r)}
	fixtures[name] = f
	return f
}

// readGraphFile parses a .graph file: `node <id> [key=value ...]` and
// `edge <src> <TYPE> <dst> [key=value ...]`.
func readGraphFile(file string) (*graph.Graph, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	g := graph.New()
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields, err := splitFields(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, lineNo, err)
		}
		switch fields[0] {
		case "node":
			n, err := nodeFromFields(fields[1], fields[2:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, lineNo, err)
			}
			g.AddNode(n)
		case "edge":
			if len(fields) < 4 {
				return nil, fmt.Errorf("%s:%d: edge needs <src> <TYPE> <dst>", file, lineNo)
			}
			e := graph.Edge{Src: fields[1], Type: graph.ParseEdgeType(fields[2]), Dst: fields[3], Reason: graph.ReasonSyntax}
			if e.Type == graph.EdgeInvalid {
				return nil, fmt.Errorf("%s:%d: unknown edge type %s", file, lineNo, fields[2])
			}
			conf := -1.0
			for _, kv := range fields[4:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "reason":
					e.Reason = graph.Reason(v)
				case "confidence":
					conf, _ = strconv.ParseFloat(v, 64)
				case "line":
					e.Line, _ = strconv.Atoi(v)
				default:
					return nil, fmt.Errorf("%s:%d: unknown edge key %s", file, lineNo, k)
				}
			}
			e.Confidence = e.Reason.Confidence()
			if conf > 0 {
				e.Confidence = conf
			}
			if !g.HasNode(e.Src) || !g.HasNode(e.Dst) {
				return nil, fmt.Errorf("%s:%d: edge between unknown nodes", file, lineNo)
			}
			g.AddEdge(e)
		default:
			return nil, fmt.Errorf("%s:%d: expected node or edge", file, lineNo)
		}
	}
	return g, sc.Err()
}

// nodeFromFields builds a node from its id and key=value fields. Defaults
// come from the id: for `Kind:path:Qual`, name is the last part of Qual,
// filePath is path; for `File:path` and `Folder:path`, name is the base of
// path; language follows the extension; isExported follows Go's rule.
func nodeFromFields(id string, kvs []string) (graph.Node, error) {
	kind := graph.KindOfID(id)
	if kind == graph.KindInvalid {
		return graph.Node{}, fmt.Errorf("id %s does not start with a kind", id)
	}
	_, rest, _ := strings.Cut(id, ":")
	n := graph.Node{ID: id, Kind: kind}
	switch kind {
	case graph.KindFile, graph.KindFolder:
		n.FilePath, n.Name, n.QualifiedName = rest, path.Base(rest), rest
	case graph.KindPackage:
		n.Name, n.QualifiedName = path.Base(rest), rest
	default:
		file, qual := rest, rest
		if i := strings.LastIndexByte(rest, ':'); i >= 0 {
			file, qual = rest[:i], rest[i+1:]
		}
		n.FilePath, n.QualifiedName = file, qual
		n.Name = qual[strings.LastIndexByte(qual, '.')+1:]
		n.Exported = n.Name != "" && strings.ToUpper(n.Name[:1]) == n.Name[:1]
	}
	switch path.Ext(n.FilePath) {
	case ".go":
		n.Language = "go"
	case ".py":
		n.Language = "python"
	case ".ts":
		n.Language = "typescript"
	}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return n, fmt.Errorf("expected key=value, got %s", kv)
		}
		var err error
		switch k {
		case "name":
			n.Name = v
		case "qualifiedName":
			n.QualifiedName = v
		case "filePath":
			n.FilePath = v
		case "startLine":
			n.StartLine, err = strconv.Atoi(v)
		case "endLine":
			n.EndLine, err = strconv.Atoi(v)
		case "signature":
			n.Signature = v
		case "doc":
			n.Doc = v
		case "content":
			n.Content = v
		case "language":
			n.Language = v
		case "isExported":
			n.Exported = v == "true"
		default:
			return n, fmt.Errorf("unknown node key %s", k)
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// splitFields splits on spaces, keeping key="quoted value" together and
// unquoting it.
func splitFields(line string) ([]string, error) {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		end := strings.IndexByte(line, ' ')
		if q := strings.IndexByte(line, '"'); q >= 0 && (end < 0 || q < end) {
			// key="...": find the closing quote.
			prefix := line[:q]
			s, err := strconv.QuotedPrefix(line[q:])
			if err != nil {
				return nil, fmt.Errorf("bad quoted value in %q: %w", line, err)
			}
			v, _ := strconv.Unquote(s)
			out = append(out, prefix+v)
			line = line[q+len(s):]
			continue
		}
		if end < 0 {
			end = len(line)
		}
		out = append(out, line[:end])
		line = line[end:]
	}
	return out, nil
}
