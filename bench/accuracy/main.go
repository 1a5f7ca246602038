// Command accuracy scores the CALLS edges of a GitNexus index against a
// reference call graph produced by a compiler-grade oracle
// (bench/oracle/<language>), and prints the precision and recall of static
// calls and of dispatch.
//
//	go run -tags sqlite_fts5 ./bench/accuracy -db <repo>/.gitnexus/graph.db -oracle out.jsonl [-files out.jsonl.files] [-name repo] [-samples 20] [-dump misses.tsv]
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
//     against all our CALLS edges for recall, and our dispatch edges
//     ("dispatch", "dispatch-external") for precision, at call sites whose
//     interface or base method is declared in the repository.
//   - external dispatch: the oracle's "dispatch" edges at call sites whose
//     interface or base method is declared outside the repository (Go's
//     error.Error, http.ResponseWriter.WriteHeader; Java's Object.toString
//     on a receiver typed Object): the oracle has no static edge there. Their
//     recall is shown apart, and they count in the full truth like any other
//     edge. A site is told by its caller, line and method name, so such a
//     call on a line that also calls a repository method of the same name
//     counts as repository dispatch.
//   - full truth: the union of static, dispatch and external dispatch edges,
//     including oracle edges with an endpoint we have no node for (each a
//     miss). Recall is the share of it among all our CALLS edges; precision
//     is that of all our edges (static and dispatch) that the oracle can
//     judge; F1 is their harmonic mean.
//   - node recall: of the functions and methods the oracle's edges name
//     (callers and callees; file-level callers left out), the share that
//     maps to a node of the index by the matching above.
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
	dumpPath := flag.String("dump", "", "write every miss and false positive to this file (TSV: category, ours or oracle ends, site)")
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
	rep, err := score(*dbPath, *oraclePath, *filesPath, *samples, *dumpPath)
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
	DispatchOracle    int     `json:"dispatchOracle"` // at sites whose target is in the repository
	DispatchOurs      int     `json:"dispatchOurs"`
	DispatchHit       int     `json:"dispatchHit"`
	DispatchRight     int     `json:"dispatchRight"`
	DispatchPrecision float64 `json:"dispatchPrecision"`
	DispatchRecall    float64 `json:"dispatchRecall"`
	// Dispatch through interfaces or base methods declared outside the
	// repository: distinct caller-callee pairs that are neither static nor
	// in-repository dispatch pairs.
	DispatchExternal int     `json:"dispatchExternal"`
	ExternalHit      int     `json:"externalHit"`
	ExternalRecall   float64 `json:"externalRecall"`
	// Full truth: static, dispatch and external dispatch, unmapped oracle
	// edges included.
	TruthOracle   int     `json:"truthOracle"`
	TruthHit      int     `json:"truthHit"`
	FullPrecision float64 `json:"fullPrecision"`
	FullRecall    float64 `json:"fullRecall"`
	FullF1        float64 `json:"fullF1"`
	// Nodes the oracle's edges name, and those we have.
	NodesOracle int     `json:"nodesOracle"`
	NodesHit    int     `json:"nodesHit"`
	NodeRecall  float64 `json:"nodeRecall"`

	UnmappedOracle         int               `json:"unmappedOracleEdges"`
	Unverifiable           int               `json:"unverifiable"` // our edges at sites the oracle could not resolve
	NameOnlyOurs           int               `json:"nameOnlyOurs"`
	NameOnlyRight          int               `json:"nameOnlyRight"`
	ByReason               map[string][2]int `json:"byReason"` // reason → [edges, right]
	samplesFP, samplesFN   []string
	samplesDFN, samplesDFP []string
	samplesXFN             []string
	samplesUnmapped        []string
	samplesNodes           []string
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func score(dbPath, oraclePath, filesPath string, nSamples int, dumpPath string) (*Report, error) {
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
	static, dispatch, external := map[pair]bool{}, map[pair]bool{}, map[pair]bool{}
	sites := map[pair]string{}
	siteOf := func(e oracleEdge) string { return fmt.Sprintf("%s:%d", e.Site.File, e.Site.Line) }
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
	// The functions and methods the oracle names (file-level callers left
	// out), and whether one of our nodes matches.
	oracleNodes := map[endpoint]bool{}
	mapNode := func(e endpoint) (string, bool) {
		id, ok := resolve(e)
		if e.Line != 0 {
			oracleNodes[e] = ok
		}
		return id, ok
	}
	// Oracle edges with an end we have no node for, by their two ends:
	// misses of the full truth.
	unmapped := map[[2]endpoint]string{}
	noteUnmapped := func(e oracleEdge) {
		rep.UnmappedOracle++
		k := [2]endpoint{e.Caller, e.Callee}
		if _, seen := unmapped[k]; seen {
			return
		}
		unmapped[k] = siteOf(e)
		if len(rep.samplesUnmapped) < 200 {
			rep.samplesUnmapped = append(rep.samplesUnmapped, fmt.Sprintf("%s:%d %s -> %s:%d %s (%s, site %s)",
				e.Caller.File, e.Caller.Line, e.Caller.Name, e.Callee.File, e.Callee.Line, e.Callee.Name, e.Kind, siteOf(e)))
		}
	}
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
		src, ok1 := mapNode(e.Caller)
		dst, ok2 := mapNode(e.Callee)
		if !ok1 || !ok2 {
			noteUnmapped(e)
			continue
		}
		static[pair{src, dst}] = true
		sites[pair{src, dst}] = siteOf(e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, e := range dispatchEdges {
		src, ok1 := mapNode(e.Caller)
		dst, ok2 := mapNode(e.Callee)
		if !ok1 || !ok2 {
			noteUnmapped(e)
			continue
		}
		p := pair{src, dst}
		if _, ok := sites[p]; !ok {
			sites[p] = siteOf(e)
		}
		// A dispatch whose call site has no static edge in the repository
		// goes through an interface or base method declared elsewhere.
		if staticSites[siteKey{e.Caller.File + ":" + e.Caller.Name, e.Site.File, e.Site.Line, e.Callee.Name}] {
			dispatch[p] = true
		} else {
			external[p] = true
		}
	}
	delete(dispatch, pair{}) // nothing
	for p := range dispatch {
		if static[p] {
			delete(dispatch, p) // counted once, as static
		}
	}
	for p := range external {
		if static[p] || dispatch[p] {
			delete(external, p) // counted once, where the repository names the method
		}
	}

	// Scores.
	var fps, fns, dfns, dfps, xfns []string
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
				dfps = append(dfps, fmt.Sprintf("%s -> %s (line %d)", p.src, p.dst, lineOf[p]))
			}
			continue
		}
		rep.StaticOurs++
		if right {
			rep.StaticRight++
		} else {
			fps = append(fps, fmt.Sprintf("%s -> %s [%s] (line %d)", p.src, p.dst, reason, lineOf[p]))
		}
		if reason == "name-only" {
			rep.NameOnlyOurs++
			if right {
				rep.NameOnlyRight++
			}
		}
	}
	rep.StaticOracle = len(static)
	staticAny := 0 // static pairs we have with any reason
	for p := range static {
		r, ok := ours[p]
		if ok {
			staticAny++
		}
		if ok && !isDispatch(r) {
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
	rep.DispatchExternal = len(external)
	for p := range external {
		if _, ok := ours[p]; ok {
			rep.ExternalHit++
		} else {
			xfns = append(xfns, fmt.Sprintf("%s -> %s (site %s)", p.src, p.dst, sites[p]))
		}
	}
	rep.StaticPrecision = ratio(rep.StaticRight, rep.StaticOurs)
	rep.StaticRecall = ratio(rep.StaticHit, rep.StaticOracle)
	rep.DispatchPrecision = ratio(rep.DispatchRight, rep.DispatchOurs)
	rep.DispatchRecall = ratio(rep.DispatchHit, rep.DispatchOracle)
	rep.ExternalRecall = ratio(rep.ExternalHit, rep.DispatchExternal)
	rep.TruthOracle = len(static) + len(dispatch) + len(external) + len(unmapped)
	rep.TruthHit = staticAny + rep.DispatchHit + rep.ExternalHit
	rep.FullPrecision = ratio(rep.StaticRight+rep.DispatchRight, rep.StaticOurs+rep.DispatchOurs)
	rep.FullRecall = ratio(rep.TruthHit, rep.TruthOracle)
	if rep.FullPrecision+rep.FullRecall > 0 {
		rep.FullF1 = 2 * rep.FullPrecision * rep.FullRecall / (rep.FullPrecision + rep.FullRecall)
	}
	var missingNodes []string
	for e, ok := range oracleNodes {
		rep.NodesOracle++
		if ok {
			rep.NodesHit++
		} else {
			n := fmt.Sprintf("%s:%d %s", e.File, e.Line, e.Name)
			if e.Kind != "" {
				n += " (" + e.Kind + ")"
			}
			missingNodes = append(missingNodes, n)
		}
	}
	rep.NodeRecall = ratio(rep.NodesHit, rep.NodesOracle)
	if dumpPath != "" {
		var unmappedLines []string
		for k, s := range unmapped {
			unmappedLines = append(unmappedLines, fmt.Sprintf("%s:%d %s -> %s:%d %s (site %s)",
				k[0].File, k[0].Line, k[0].Name, k[1].File, k[1].Line, k[1].Name, s))
		}
		if err := dump(dumpPath, map[string][]string{
			"static-miss": fns, "dispatch-miss": dfns, "external-miss": xfns,
			"static-wrong": fps, "dispatch-wrong": dfps, "unmapped-edge": unmappedLines, "node-miss": missingNodes,
		}); err != nil {
			return nil, err
		}
	}
	rng := rand.New(rand.NewSource(1))
	pick := func(xs []string) []string {
		sort.Strings(xs)
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		return xs[:min(nSamples, len(xs))]
	}
	rep.samplesFP, rep.samplesFN, rep.samplesDFN, rep.samplesDFP = pick(fps), pick(fns), pick(dfns), pick(dfps)
	rep.samplesXFN, rep.samplesNodes = pick(xfns), pick(missingNodes)
	rep.samplesUnmapped = pick(rep.samplesUnmapped)
	return rep, nil
}

// dump writes every entry of each category, sorted, one per line.
func dump(path string, byCategory map[string][]string) error {
	var cats []string
	for c := range byCategory {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	for _, c := range cats {
		xs := append([]string(nil), byCategory[c]...)
		sort.Strings(xs)
		for _, x := range xs {
			b.WriteString(c + "\t" + x + "\n")
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
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
	fmt.Printf("  dispatch: precision %.3f (%d/%d)  recall %.3f (%d/%d)\n",
		r.DispatchPrecision, r.DispatchRight, r.DispatchOurs, r.DispatchRecall, r.DispatchHit, r.DispatchOracle)
	fmt.Printf("  external dispatch (interfaces outside the repository): recall %.3f (%d/%d)\n",
		r.ExternalRecall, r.ExternalHit, r.DispatchExternal)
	fmt.Printf("  full truth: precision %.3f  recall %.3f (%d/%d)  F1 %.3f\n",
		r.FullPrecision, r.FullRecall, r.TruthHit, r.TruthOracle, r.FullF1)
	fmt.Printf("  nodes: recall %.3f (%d/%d)\n", r.NodeRecall, r.NodesHit, r.NodesOracle)
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
	section("misses (external dispatch)", r.samplesXFN)
	section("oracle nodes we lack", r.samplesNodes)
	section("oracle edges without a node", r.samplesUnmapped)
}

// isDispatch reports whether one of our reasons is a dispatch to an
// implementation that may run, through an interface of the repository or
// one declared outside it.
func isDispatch(reason string) bool { return reason == "dispatch" || reason == "dispatch-external" }
