// Command accuracy scores the CALLS edges of a GitNexus index against a
// reference call graph produced by a compiler-grade oracle
// (bench/oracle/<language>), and prints the precision and recall of static
// calls and of dispatch.
//
//	go run -tags sqlite_fts5 ./bench/accuracy -db <repo>/.gitnexus/graph.db -oracle out.jsonl [-files out.jsonl.files] [-name repo] [-samples 20]
//
// Oracle endpoints (file, line of the definition's name, name) are mapped to
// nodes: the innermost code node of that file (historical symbols, commits,
// communities and processes are left out) whose span contains the line and
// whose name matches (line 0 is the File node; an endpoint with a "kind"
// matches only nodes of that kind). Definitions:
//
//   - static: the oracle's "static" edges (the declaration the compiler
//     resolves a call to) against our CALLS edges whose reason is not a
//     dispatch ("dispatch", "dispatch-external"). Precision counts one of
//     our static edges as right when the oracle has that pair as static or
//     dispatch (a receiver typed more precisely than the declaration is
//     still a real call).
//   - dispatch: the oracle's "dispatch" edges (implementations that may run)
//     against all our CALLS edges for recall, and our dispatch edges for
//     precision. Dispatch edges at call sites whose interface or base
//     method is outside the repository (Go's error.Error) are reported
//     apart and left out of recall (only the interfaces whose method sets
//     the rules carry can be followed: the Go standard library's), and
//     count as right when we find them.
//
// Only edges whose caller lies in a file the oracle analyzed count (the Go
// oracle sees the files of one platform).
package main

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"

	_ "github.com/mattn/go-sqlite3"
)

type endpoint struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Name string `json:"name"`
	// Kind, when set, is the node kind the endpoint must have ("Class"):
	// the Kotlin oracle names a class by a line of its body, which can
	// also lie in its primary constructor (same name, same line).
	Kind string `json:"kind,omitempty"`
}

type oracleEdge struct {
	Caller endpoint `json:"caller"`
	Callee endpoint `json:"callee"`
	Kind   string   `json:"kind"`
	Site   struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"site"`
}

type node struct {
	id, kind, name, file string
	start, end           int
}

type pair struct{ src, dst string }

func main() {
	dbPath := flag.String("db", "", "graph.db of the indexed corpus")
	oraclePath := flag.String("oracle", "", "oracle JSONL")
	filesPath := flag.String("files", "", "files the oracle analyzed (default <oracle>.files when it exists)")
	name := flag.String("name", "", "corpus name for the report")
	samples := flag.Int("samples", 0, "print this many false positives and misses of each kind")
	jsonOut := flag.Bool("json", false, "print the scores as JSON")
	flag.Parse()
	if *dbPath == "" || *oraclePath == "" {
		flag.Usage()
		os.Exit(2)
	}
	if *filesPath == "" {
		for _, suffix := range []string{".files", ".files.txt"} {
			if _, err := os.Stat(*oraclePath + suffix); err == nil {
				*filesPath = *oraclePath + suffix
			}
		}
	}
	rep, err := score(*dbPath, *oraclePath, *filesPath, *samples)
	if err != nil {
		fmt.Fprintln(os.Stderr, "accuracy:", err)
		os.Exit(1)
	}
	rep.Name = *name
	if *jsonOut {
		json.NewEncoder(os.Stdout).Encode(rep) //nolint:errcheck // one line, for scripts
		return
	}
	rep.print()
}

// Report holds the scores of one corpus.
type Report struct {
	Name string `json:"name"`
	// Static calls.
	StaticOracle    int     `json:"staticOracle"`
	StaticOurs      int     `json:"staticOurs"`
	StaticHit       int     `json:"staticHit"` // oracle static edges we have as static
	StaticRight     int     `json:"staticRight"`
	StaticPrecision float64 `json:"staticPrecision"`
	StaticRecall    float64 `json:"staticRecall"`
	// Dispatch.
	DispatchOracle         int               `json:"dispatchOracle"` // at sites whose target is in the repository
	DispatchExternal       int               `json:"dispatchExternal"`
	DispatchOurs           int               `json:"dispatchOurs"`
	DispatchHit            int               `json:"dispatchHit"`
	DispatchRight          int               `json:"dispatchRight"`
	DispatchPrecision      float64           `json:"dispatchPrecision"`
	DispatchRecall         float64           `json:"dispatchRecall"`
	UnmappedOracle         int               `json:"unmappedOracleEdges"`
	Unverifiable           int               `json:"unverifiable"` // our edges at sites the oracle could not resolve
	NameOnlyOurs           int               `json:"nameOnlyOurs"`
	NameOnlyRight          int               `json:"nameOnlyRight"`
	ByReason               map[string][2]int `json:"byReason"` // reason → [edges, right]
	samplesFP, samplesFN   []string
	samplesDFN, samplesDFP []string
	samplesUnmapped        []string
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func score(dbPath, oraclePath, filesPath string, nSamples int) (*Report, error) {
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	nodes, byFile, err := loadNodes(db)
	if err != nil {
		return nil, err
	}
	var analyzed map[string]bool
	if filesPath != "" {
		analyzed, err = readLines(filesPath)
		if err != nil {
			return nil, err
		}
	}
	callerOK := func(file string) bool { return analyzed == nil || analyzed[file] }

	// Sites the oracle could not resolve (<oracle>.unresolved.jsonl, when
	// the oracle writes one): an edge of ours first seen there can be
	// neither confirmed nor denied, so it is left out of precision.
	unresolved, err := readSites(oraclePath + ".unresolved.jsonl")
	if err != nil {
		return nil, err
	}

	// Our edges.
	ours := map[pair]string{} // pair → reason
	lineOf := map[pair]int{}
	rows, err := db.Query(`SELECT src, dst, reason, line FROM edges WHERE type = 'CALLS'`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var p pair
		var reason string
		var line int
		if err := rows.Scan(&p.src, &p.dst, &reason, &line); err != nil {
			return nil, err
		}
		lineOf[p] = line
		// Both ends must lie in files the oracle analyzed: it cannot
		// confirm or deny an edge into a file it never loaded (another
		// platform's file, a command outside the packages it loaded).
		src, ok1 := nodes[p.src]
		dst, ok2 := nodes[p.dst]
		if ok1 && ok2 && callerOK(src.file) && callerOK(dst.file) {
			ours[p] = reason
		}
	}
	rows.Close()

	// Oracle edges, mapped.
	rep := &Report{ByReason: map[string][2]int{}}
	resolve := func(e endpoint) (string, bool) {
		if e.Line == 0 {
			id := "File:" + e.File
			_, ok := nodes[id]
			return id, ok
		}
		// Among the nodes containing the line with that name, one that
		// starts on it (the line of a declaration) wins over one that
		// only ends there (a span running into the next declaration);
		// then the innermost. A class without a body spans what its
		// primary constructor spans (Kotlin): the constructor is meant.
		better := func(n, best *node) bool {
			if (n.start == e.Line) != (best.start == e.Line) {
				return n.start == e.Line
			}
			if n.end-n.start != best.end-best.start {
				return n.end-n.start < best.end-best.start
			}
			return n.kind == "Constructor" && best.kind != "Constructor"
		}
		var best *node
		for _, n := range byFile[e.File] {
			if n.start <= e.Line && e.Line <= n.end && n.name == e.Name && (e.Kind == "" || n.kind == e.Kind) {
				if best == nil || better(n, best) {
					best = n
				}
			}
		}
		if best == nil {
			return "", false
		}
		return best.id, true
	}
	f, err := os.Open(oraclePath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	static, dispatch := map[pair]bool{}, map[pair]bool{}
	sites := map[pair]string{}
	// A site is a caller, a line and the called method's name: several
	// calls can share a line (`t.Errorf("%v", err.Error())`).
	type siteKey struct {
		caller string
		file   string
		line   int
		name   string
	}
	staticSites := map[siteKey]bool{}
	var dispatchEdges []oracleEdge
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e oracleEdge
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("oracle line %q: %w", sc.Text(), err)
		}
		if !callerOK(e.Caller.File) {
			continue
		}
		if e.Kind == "dispatch" {
			dispatchEdges = append(dispatchEdges, e)
			continue
		}
		staticSites[siteKey{e.Caller.File + ":" + e.Caller.Name, e.Site.File, e.Site.Line, e.Callee.Name}] = true
		src, ok1 := resolve(e.Caller)
		dst, ok2 := resolve(e.Callee)
		if !ok1 || !ok2 {
			rep.UnmappedOracle++
			if len(rep.samplesUnmapped) < 200 {
				rep.samplesUnmapped = append(rep.samplesUnmapped, fmt.Sprintf("%s:%d %s -> %s:%d %s (site %s:%d)",
					e.Caller.File, e.Caller.Line, e.Caller.Name, e.Callee.File, e.Callee.Line, e.Callee.Name, e.Site.File, e.Site.Line))
			}
			continue
		}
		static[pair{src, dst}] = true
		sites[pair{src, dst}] = fmt.Sprintf("%s:%d", e.Site.File, e.Site.Line)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	// external holds dispatch edges through interfaces declared outside
	// the repository: not counted for recall (nothing in the repository
	// names the method), but right when we find them.
	external := map[pair]bool{}
	for _, e := range dispatchEdges {
		src, ok1 := resolve(e.Caller)
		dst, ok2 := resolve(e.Callee)
		// A dispatch whose call site has no static edge in the repository
		// goes through an interface or base method declared elsewhere.
		if !staticSites[siteKey{e.Caller.File + ":" + e.Caller.Name, e.Site.File, e.Site.Line, e.Callee.Name}] {
			rep.DispatchExternal++
			if ok1 && ok2 {
				external[pair{src, dst}] = true
			}
			continue
		}
		if !ok1 || !ok2 {
			rep.UnmappedOracle++
			continue
		}
		dispatch[pair{src, dst}] = true
		sites[pair{src, dst}] = fmt.Sprintf("%s:%d", e.Site.File, e.Site.Line)
	}
	delete(dispatch, pair{}) // nothing
	for p := range dispatch {
		if static[p] {
			delete(dispatch, p) // counted once, as static
		}
	}

	// Scores.
	var fps, fns, dfns, dfps []string
	for p, reason := range ours {
		right := static[p] || dispatch[p] || external[p]
		if !right && unresolved[site{nodes[p.src].file, lineOf[p]}] {
			rep.Unverifiable++
			continue
		}
		br := rep.ByReason[reason]
		br[0]++
		if right {
			br[1]++
		}
		rep.ByReason[reason] = br
		if isDispatch(reason) {
			rep.DispatchOurs++
			if right {
				rep.DispatchRight++
			} else {
				dfps = append(dfps, fmt.Sprintf("%s -> %s", p.src, p.dst))
			}
			continue
		}
		rep.StaticOurs++
		if right {
			rep.StaticRight++
		} else {
			fps = append(fps, fmt.Sprintf("%s -> %s [%s]", p.src, p.dst, reason))
		}
		if reason == "name-only" {
			rep.NameOnlyOurs++
			if right {
				rep.NameOnlyRight++
			}
		}
	}
	rep.StaticOracle = len(static)
	for p := range static {
		if r, ok := ours[p]; ok && !isDispatch(r) {
			rep.StaticHit++
		} else {
			fns = append(fns, fmt.Sprintf("%s -> %s (site %s)", p.src, p.dst, sites[p]))
		}
	}
	rep.DispatchOracle = len(dispatch)
	for p := range dispatch {
		if _, ok := ours[p]; ok {
			rep.DispatchHit++
		} else {
			dfns = append(dfns, fmt.Sprintf("%s -> %s (site %s)", p.src, p.dst, sites[p]))
		}
	}
	rep.StaticPrecision = ratio(rep.StaticRight, rep.StaticOurs)
	rep.StaticRecall = ratio(rep.StaticHit, rep.StaticOracle)
	rep.DispatchPrecision = ratio(rep.DispatchRight, rep.DispatchOurs)
	rep.DispatchRecall = ratio(rep.DispatchHit, rep.DispatchOracle)
	rng := rand.New(rand.NewSource(1))
	pick := func(xs []string) []string {
		sort.Strings(xs)
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		return xs[:min(nSamples, len(xs))]
	}
	rep.samplesFP, rep.samplesFN, rep.samplesDFN, rep.samplesDFP = pick(fps), pick(fns), pick(dfns), pick(dfps)
	rep.samplesUnmapped = pick(rep.samplesUnmapped)
	return rep, nil
}

func loadNodes(db *sql.DB) (map[string]*node, map[string][]*node, error) {
	// Nodes of the history (symbols of earlier versions, commits) and of
	// the analyses carry old spans or none: an oracle endpoint is a
	// declaration of the code as it is.
	rows, err := db.Query(`SELECT id, kind, name, file_path, start_line, end_line FROM nodes
		WHERE kind NOT IN ('Folder', 'Package', 'HistoricalSymbol', 'Commit', 'Community', 'Process')`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	nodes := map[string]*node{}
	byFile := map[string][]*node{}
	for rows.Next() {
		n := &node{}
		if err := rows.Scan(&n.id, &n.kind, &n.name, &n.file, &n.start, &n.end); err != nil {
			return nil, nil, err
		}
		nodes[n.id] = n
		if n.kind != "File" {
			byFile[n.file] = append(byFile[n.file], n)
		}
	}
	return nodes, byFile, rows.Err()
}

type site struct {
	file string
	line int
}

// readSites reads the call sites of an oracle's unresolved list; a missing
// file is an empty list.
func readSites(path string) (map[site]bool, error) {
	out := map[site]bool{}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var e struct {
			Site struct {
				File string `json:"file"`
				Line int    `json:"line"`
			} `json:"site"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[site{e.Site.File, e.Site.Line}] = true
	}
	return out, nil
}

func readLines(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out[l] = true
		}
	}
	return out, nil
}

func (r *Report) print() {
	fmt.Printf("%s\n", r.Name)
	fmt.Printf("  static:   precision %.3f (%d/%d)  recall %.3f (%d/%d)\n",
		r.StaticPrecision, r.StaticRight, r.StaticOurs, r.StaticRecall, r.StaticHit, r.StaticOracle)
	fmt.Printf("  dispatch: precision %.3f (%d/%d)  recall %.3f (%d/%d); %d more through interfaces outside the repository\n",
		r.DispatchPrecision, r.DispatchRight, r.DispatchOurs, r.DispatchRecall, r.DispatchHit, r.DispatchOracle, r.DispatchExternal)
	fmt.Printf("  name-only: %d edges, %d right; oracle edges with an endpoint we have no node for: %d; our edges at sites the oracle left unresolved: %d\n",
		r.NameOnlyOurs, r.NameOnlyRight, r.UnmappedOracle, r.Unverifiable)
	var reasons []string
	for k := range r.ByReason {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		v := r.ByReason[k]
		fmt.Printf("    %-16s %7d edges, precision %.3f\n", k, v[0], ratio(v[1], v[0]))
	}
	section := func(title string, xs []string) {
		if len(xs) == 0 {
			return
		}
		fmt.Printf("  %s:\n", title)
		for _, x := range xs {
			fmt.Printf("    %s\n", x)
		}
	}
	section("false positives (static)", r.samplesFP)
	section("misses (static)", r.samplesFN)
	section("misses (dispatch)", r.samplesDFN)
	section("false positives (dispatch)", r.samplesDFP)
	section("oracle edges without a node", r.samplesUnmapped)
}

// isDispatch reports whether one of our reasons is a dispatch to an
// implementation that may run, through an interface of the repository or
// one declared outside it.
func isDispatch(reason string) bool { return reason == "dispatch" || reason == "dispatch-external" }
