package layers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The package map is the section mapHeading of mapFile: under one `###`
// heading per layer, a table whose rows are
//
//	| `name` | `import` `import` … (or —) | what the package is |
//
// name is a package's path under internal/, or cmd/gitnexus; the imports
// are the package's direct imports of other packages of the module (not
// its tests'), named the same way. A row comes after the rows of the
// packages it imports, so the map reads from the bottom layer up.
const (
	module     = "gitnexus.dev/gitnexus"
	mapFile    = "docs/architecture.md"
	mapHeading = "## Package map"
)

// Layers the rules below refer to, by their heading in the map.
const (
	layerIndex = "Index"
	layerQuery = "Query"
	layerTests = "Tests"
)

// queryIndexEdges are the imports by which a query-side package may reach
// an index-side one, with the reason. What the imported package depends on
// is still checked: it must not be ingest or a grammar.
var queryIndexEdges = map[[2]string]string{
	// get_symbol with a commit extracts the symbol's source from the file
	// as of that commit with its language's extractor
	// (backend/history_api.go). lang holds the registry only: the
	// languages register themselves in the binary through ingest, which
	// cli imports, so the query side links no grammar.
	{"backend", "lang"}: "a symbol's source as of a commit",
}

// mapRow is one row of the package map.
type mapRow struct {
	name    string
	imports []string
	layer   string
	line    int // in mapFile
}

// goPackage is what `go list -json` says of a package.
type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	Error      *struct{ Err string }
}

var (
	listOnce sync.Once
	listed   map[string]*goPackage
	listErr  error
)

// moduleRoot is the directory of go.mod, two levels above this package.
func moduleRoot() string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return filepath.Join("..", "..")
	}
	return root
}

// packages runs `go list -deps -json ./...` once, with the build tag the
// module needs, and returns every package by import path.
func packages(t *testing.T) map[string]*goPackage {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH (%v): the imports are not checked against %s", err, mapFile)
	}
	listOnce.Do(func() {
		cmd := exec.Command(goCmd, "list", "-e", "-deps", "-json", "-tags", "sqlite_fts5", "./...")
		cmd.Dir = moduleRoot()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			listErr = fmt.Errorf("go list: %w: %s", err, strings.TrimSpace(stderr.String()))
			return
		}
		listed = map[string]*goPackage{}
		dec := json.NewDecoder(bytes.NewReader(out))
		for {
			var p goPackage
			if err := dec.Decode(&p); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				listErr = fmt.Errorf("decode go list: %w", err)
				return
			}
			listed[p.ImportPath] = &p
		}
	})
	if listErr != nil {
		t.Fatal(listErr)
	}
	return listed
}

// mapName is the package map's name of a package of the module, and
// whether the map covers it (bench and other tools are outside it).
func mapName(importPath string) (string, bool) {
	if rest, ok := strings.CutPrefix(importPath, module+"/internal/"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(importPath, module+"/"); ok && strings.HasPrefix(rest, "cmd/") {
		return rest, true
	}
	return "", false
}

// shortName is the map's name of a package of the map, else its import
// path.
func shortName(importPath string) string {
	if name, ok := mapName(importPath); ok {
		return name
	}
	return importPath
}

// importPathOf is the import path of a package the map names.
func importPathOf(name string) string {
	if strings.HasPrefix(name, "cmd/") {
		return module + "/" + name
	}
	return module + "/internal/" + name
}

// readMap parses the package map.
func readMap(t *testing.T) []mapRow {
	t.Helper()
	f, err := os.Open(filepath.Join(moduleRoot(), mapFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []mapRow
	var problems []string
	in, layer := false, ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == mapHeading:
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "## "):
			in = false
			continue
		case strings.HasPrefix(line, "### "):
			layer = strings.TrimSpace(strings.TrimPrefix(line, "### "))
			continue
		case !strings.HasPrefix(line, "|"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 3 {
			problems = append(problems, fmt.Sprintf("%s:%d: a row has three cells (package, imports, what it is), not %d", mapFile, n, len(cells)))
			continue
		}
		if cells[0] == "Package" || strings.HasPrefix(cells[0], "-") || strings.HasPrefix(cells[0], ":-") {
			continue // the header and its rule
		}
		name, ok := codeSpan(cells[0])
		if !ok {
			problems = append(problems, fmt.Sprintf("%s:%d: the package %q is not written as `name`", mapFile, n, cells[0]))
			continue
		}
		r := mapRow{name: name, layer: layer, line: n}
		if layer == "" {
			problems = append(problems, fmt.Sprintf("%s:%d: `%s` is under no layer heading (###)", mapFile, n, name))
		}
		if cells[1] != "—" && cells[1] != "-" {
			for _, f := range strings.Fields(strings.ReplaceAll(cells[1], ",", " ")) {
				imp, ok := codeSpan(f)
				if !ok {
					problems = append(problems, fmt.Sprintf("%s:%d: the import %q of `%s` is not written as `name`", mapFile, n, f, name))
					continue
				}
				r.imports = append(r.imports, imp)
			}
		}
		if cells[2] == "" {
			problems = append(problems, fmt.Sprintf("%s:%d: `%s` does not say what it is", mapFile, n, name))
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no package map: a section %q with a table per layer", mapFile, mapHeading)
	}
	for _, p := range problems {
		t.Error(p)
	}
	return rows
}

// codeSpan returns s without the backquotes around it.
func codeSpan(s string) (string, bool) {
	if len(s) < 3 || s[0] != '`' || s[len(s)-1] != '`' || strings.Contains(s[1:len(s)-1], "`") {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// importingFile names a file of p that imports imp, for messages.
func importingFile(p *goPackage, imp string) string {
	fset := token.NewFileSet()
	for _, name := range append(slices.Clone(p.GoFiles), p.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, is := range f.Imports {
			if path, err := strconv.Unquote(is.Path.Value); err == nil && path == imp {
				if rel, err := filepath.Rel(moduleRoot(), filepath.Join(p.Dir, name)); err == nil && !strings.HasPrefix(rel, "..") {
					return filepath.ToSlash(rel)
				}
				return name
			}
		}
	}
	return "a file of " + p.ImportPath
}

// TestImportsFollowThePackageMap: every package of internal/ and cmd/ has
// a row in the package map, each row names a package and lists exactly the
// module's packages it imports, every import is of a row above, and only
// tests import the packages for tests.
func TestImportsFollowThePackageMap(t *testing.T) {
	pkgs := packages(t)
	rows := readMap(t)
	byName := map[string]*mapRow{}
	for i := range rows {
		r := &rows[i]
		if prev, ok := byName[r.name]; ok {
			t.Errorf("%s:%d: `%s` has a row already, at line %d", mapFile, r.line, r.name, prev.line)
			continue
		}
		byName[r.name] = r
	}
	var names []string
	for path, p := range pkgs {
		name, ok := mapName(path)
		if !ok {
			continue
		}
		if p.Error != nil {
			t.Errorf("%s: %s", path, p.Error.Err)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if byName[name] == nil {
			t.Errorf("%s has no row in the package map (%s, %q): add one under its layer, saying what it is and what it imports",
				importPathOf(name), mapFile, mapHeading)
		}
	}
	for _, r := range rows {
		p := pkgs[importPathOf(r.name)]
		if p == nil {
			t.Errorf("%s:%d: `%s` is not a package of the module: remove its row", mapFile, r.line, r.name)
			continue
		}
		var actual []string
		for _, imp := range p.Imports {
			if name, ok := mapName(imp); ok {
				actual = append(actual, name)
			}
		}
		for _, name := range actual {
			if !slices.Contains(r.imports, name) {
				t.Errorf("%s imports %s, which the row of `%s` (%s:%d) does not list: if the import belongs, add `%s` to the row",
					importingFile(p, importPathOf(name)), importPathOf(name), r.name, mapFile, r.line, name)
			}
		}
		for _, name := range r.imports {
			if !slices.Contains(actual, name) {
				t.Errorf("%s:%d: the row of `%s` lists `%s`, which it does not import: remove it", mapFile, r.line, r.name, name)
			}
			if dep := byName[name]; dep != nil && dep.line > r.line {
				t.Errorf("%s:%d: `%s` imports `%s`, whose row is below it (line %d): a row comes after the rows of what it imports",
					mapFile, r.line, r.name, name, dep.line)
			}
			if dep := byName[name]; dep != nil && dep.layer == layerTests && r.layer != layerTests {
				t.Errorf("%s imports %s, a package for tests only (layer %q in %s)",
					importingFile(p, importPathOf(name)), importPathOf(name), layerTests, mapFile)
			}
		}
	}
}

// TestQuerySideDoesNotDependOnTheIndexer: no package of the query layer
// depends, directly or not, on a package of the index layer (ingest, the
// languages, the history reader …) or on a tree-sitter grammar, but
// through the imports queryIndexEdges allows.
func TestQuerySideDoesNotDependOnTheIndexer(t *testing.T) {
	pkgs := packages(t)
	rows := readMap(t)
	layerOf := map[string]string{}
	for _, r := range rows {
		layerOf[importPathOf(r.name)] = r.layer
	}
	// forbidden says why the query side may not reach path, or "".
	forbidden := func(path string) string {
		switch {
		case strings.HasPrefix(path, "github.com/tree-sitter/tree-sitter-"), strings.HasPrefix(path, "github.com/tree-sitter-grammars/"):
			return "a tree-sitter grammar"
		case layerOf[path] == layerIndex:
			return fmt.Sprintf("in the %s layer", layerIndex)
		}
		return ""
	}
	used := map[[2]string]bool{}
	for _, r := range rows {
		if r.layer != layerQuery {
			continue
		}
		start := importPathOf(r.name)
		// Breadth first over the imports, remembering how each package was
		// reached, leaving out the edges queryIndexEdges allows.
		from := map[string]string{start: ""}
		queue := []string{start}
		for len(queue) > 0 {
			path := queue[0]
			queue = queue[1:]
			if why := forbidden(path); why != "" {
				chain := []string{shortName(path)}
				for p := from[path]; p != ""; p = from[p] {
					chain = append(chain, shortName(p))
				}
				slices.Reverse(chain)
				t.Errorf("%s (query side) depends on %s, %s: %s; the query side does not depend on the indexer (%s, %q)",
					start, path, why, strings.Join(chain, " → "), mapFile, mapHeading)
				continue
			}
			p := pkgs[path]
			if p == nil {
				continue
			}
			for _, imp := range p.Imports {
				if _, seen := from[imp]; seen {
					continue
				}
				a, _ := mapName(path)
				b, _ := mapName(imp)
				if _, ok := queryIndexEdges[[2]string{a, b}]; ok {
					used[[2]string{a, b}] = true
					continue
				}
				from[imp] = path
				queue = append(queue, imp)
			}
		}
	}
	for edge, why := range queryIndexEdges {
		if !used[edge] {
			t.Errorf("%s no longer imports %s (%s): remove the edge from queryIndexEdges", edge[0], edge[1], why)
			continue
		}
		// What the allowed import brings along must still be neither the
		// indexer's driver nor a grammar.
		target := pkgs[importPathOf(edge[1])]
		if target == nil {
			continue
		}
		seen := map[string]bool{}
		queue := []string{target.ImportPath}
		for len(queue) > 0 {
			path := queue[0]
			queue = queue[1:]
			if seen[path] {
				continue
			}
			seen[path] = true
			if path != target.ImportPath && forbidden(path) != "" {
				t.Errorf("%s, which the query side may import (%s), depends on %s, %s", target.ImportPath, why, path, forbidden(path))
			}
			if p := pkgs[path]; p != nil {
				queue = append(queue, p.Imports...)
			}
		}
	}
}
