// Command gocallgraph is the reference call graph of a Go repository for
// the accuracy report: it loads every module of the repository (tests
// included) with go/packages, builds SSA, and writes one JSON edge per
// line (see edge.go): static edges for calls with a static callee and for
// interface-method calls (to the interface method), dispatch edges from
// interface-method calls to the repository's implementations.
//
// Usage:
//
//	gocallgraph [-cmd] [-check] [-files list.txt] -out edges.jsonl <repo-dir>
package main

import (
	"flag"
	"fmt"
	"go/token"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

func main() {
	out := flag.String("out", "", "file to write the edges to (required)")
	filesOut := flag.String("files", "", "file to write the list of analyzed source files to")
	withCmd := flag.Bool("cmd", false, "for the Go standard library: also load cmd")
	check := flag.Bool("check", false, "compare the static edges with golang.org/x/tools/go/callgraph/static and with a syntax-only derivation")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gocallgraph [-cmd] [-files list.txt] -out edges.jsonl <repo-dir>")
		os.Exit(2)
	}
	log.SetFlags(0)
	log.SetPrefix("gocallgraph: ")
	if err := run(flag.Arg(0), *out, *filesOut, *withCmd, *check); err != nil {
		log.Fatal(err)
	}
}

func run(dir, out, filesOut string, withCmd, check bool) error {
	start := time.Now()
	root, err := filepath.Abs(dir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return fmt.Errorf("repository %s: %w", dir, err)
	}
	units, err := loadUnits(root, withCmd)
	if err != nil {
		return err
	}
	edges := make(edgeSet)
	index := newTypeIndex()
	files := make(map[string]bool)
	var invokes []invokeSite
	var syntax *syntaxCheck
	if check {
		syntax = &syntaxCheck{edges: make(edgeSet)}
	}
	for _, u := range units {
		sites, err := analyzeUnit(root, u, edges, index, files, syntax)
		if err != nil {
			return err
		}
		invokes = append(invokes, sites...)
	}
	static := len(edges)
	if syntax != nil {
		syntax.report(edges)
	}
	for _, s := range invokes {
		for _, target := range index.implementations(s.iface, s.method) {
			if err := edges.add(Edge{Caller: s.caller, Callee: target, Kind: kindDispatch, Site: s.site}); err != nil {
				return err
			}
		}
	}
	log.Printf("%d units, %d files, %d static and %d dispatch edges, %d invoke sites, %d concrete types, %s",
		len(units), len(files), static, len(edges)-static, len(invokes), len(index.types), time.Since(start).Round(time.Millisecond))
	if err := writeEdges(out, edges); err != nil {
		return err
	}
	if filesOut != "" {
		return writeFiles(filesOut, files)
	}
	return nil
}

// analyzeUnit loads and builds one unit and adds its static edges, its
// types and its files; it returns the unit's invoke sites.
func analyzeUnit(root string, u loadUnit, edges edgeSet, index *typeIndex, files map[string]bool, syntax *syntaxCheck) ([]invokeSite, error) {
	t0 := time.Now()
	fset := token.NewFileSet()
	pkgs, err := load(u, fset)
	if err != nil {
		return nil, err
	}
	selected := selectPackages(pkgs)
	prog, ssaPkgs := ssautil.Packages(selected, ssa.BuilderMode(0))
	repo := &repository{root: root, fset: fset, files: make(map[string]fileInRepo)}
	x := &callExtractor{repo: repo, edges: edges, starts: make(map[token.Pos]token.Pos)}
	var illTyped []string
	for i, p := range selected {
		sp := ssaPkgs[i]
		if sp == nil {
			illTyped = append(illTyped, p.ID)
			continue
		}
		inRepo := false
		for _, f := range p.GoFiles {
			if rel, ok := repo.relative(f); ok {
				files[rel] = true
				inRepo = true
			}
		}
		if !inRepo {
			continue
		}
		sp.Build()
		x.indexCallStarts(p.Syntax)
		for _, fn := range sourceFunctions(prog, p, sp) {
			x.visit(fn, Node{}, false)
		}
		index.addPackage(x, p)
		if syntax != nil {
			syntax.addPackage(x, p)
		}
	}
	if x.err != nil {
		return nil, x.err
	}
	if syntax != nil {
		x.checkStaticCallGraph(prog, u.dir)
	}
	slices.Sort(illTyped)
	if len(illTyped) > 0 {
		log.Printf("%s: %d packages with errors skipped: %s", u.dir, len(illTyped), strings.Join(illTyped, ", "))
		packages.PrintErrors(pkgs)
	}
	log.Printf("%s %v: %d packages, %s", u.dir, u.patterns, len(selected), time.Since(t0).Round(time.Millisecond))
	return x.invokes, nil
}

func writeEdges(path string, edges edgeSet) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write edges: %w", err)
	}
	if err := edges.write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write edges: %w", err)
	}
	return nil
}

func writeFiles(path string, files map[string]bool) error {
	list := make([]string, 0, len(files))
	for f := range files {
		list = append(list, f+"\n")
	}
	slices.Sort(list)
	if err := os.WriteFile(path, []byte(strings.Join(list, "")), 0o644); err != nil {
		return fmt.Errorf("write file list: %w", err)
	}
	return nil
}

// goEnv reads one variable of `go env`.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
