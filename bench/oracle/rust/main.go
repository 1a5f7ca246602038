// Command rust is the Rust call-graph oracle: it compiles the library
// crates of a corpus with rustc (nightly, for its unstable output) and
// writes their calls in the format of bench/oracle/README.md.
//
//	go run ./bench/oracle/rust [-spec crates.tsv] <repo-dir> <out.jsonl>
//
// rustc resolves every call: its MIR (`-Zunpretty=mir`, unoptimized, with
// spans) names the callee of each call terminator as a path with the
// receiver's type and the trait it goes through (`<ast::Ast as
// core::fmt::Debug>::fmt`, `<V as ast::visitor::Visitor>::start`,
// `hir::Hir::kind`). rustdoc's JSON output (`--document-private-items`)
// gives every item of the crate with its span, each impl with its type,
// trait and items, and each trait with its implementations. The oracle
// joins the two: a path is looked up among the crate's items; a trait
// method called on a concrete type goes to that type's impl of the trait
// (or to the trait's default method); called on a trait object, a type
// parameter or an opaque type, it goes to the trait's method statically
// and to each impl's method by dispatch.
//
// The crates are listed per corpus in crates.tsv (directory, crate name,
// edition, features); crates that need other crates to compile are left
// out. Compiling with --test (rustdoc with --cfg test) includes the unit
// tests, as the index does.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	spec := flag.String("spec", filepath.Join(filepath.Dir(os.Args[0]), "crates.tsv"), "crates of each corpus")
	toolchain := flag.String("toolchain", "nightly", "rustup toolchain with -Zunpretty and rustdoc JSON")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: rust [-spec crates.tsv] <repo-dir> <out.jsonl>")
		os.Exit(2)
	}
	if err := run(*spec, *toolchain, flag.Arg(0), flag.Arg(1)); err != nil {
		fmt.Fprintln(os.Stderr, "rust oracle:", err)
		os.Exit(1)
	}
}

type crateSpec struct {
	dir, name, edition string
	features           []string
}

func readSpec(path, corpus string) ([]crateSpec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []crateSpec
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 4 || f[0] != corpus {
			continue
		}
		c := crateSpec{dir: f[1], name: f[2], edition: f[3]}
		if len(f) > 4 && f[4] != "" {
			c.features = strings.Split(f[4], ",")
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no crates for corpus %q", path, corpus)
	}
	return out, nil
}

func run(specPath, toolchain, repo, outPath string) error {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return err
	}
	crates, err := readSpec(specPath, filepath.Base(repo))
	if err != nil {
		return err
	}
	o := &oracle{edges: map[string]bool{}, unresolved: map[string]bool{}, files: map[string]bool{}, stats: map[string]int{},
		sources: map[string][]string{}}
	for _, c := range crates {
		if err := o.crate(toolchain, repo, c); err != nil {
			return fmt.Errorf("crate %s: %w", c.name, err)
		}
	}
	if err := writeSorted(outPath, o.edges); err != nil {
		return err
	}
	if err := writeSorted(outPath+".unresolved.jsonl", o.unresolved); err != nil {
		return err
	}
	files := map[string]bool{}
	for f := range o.files {
		files[f] = true
	}
	if err := writeSorted(outPath+".files.txt", files); err != nil {
		return err
	}
	stats, _ := json.MarshalIndent(o.stats, "", "  ")
	return os.WriteFile(outPath+".stats.json", append(stats, '\n'), 0o644)
}

func writeSorted(path string, set map[string]bool) error {
	lines := make([]string, 0, len(set))
	for l := range set {
		lines = append(lines, l)
	}
	sort.Strings(lines)
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// oracle accumulates the edges of every crate of a corpus.
type oracle struct {
	edges, unresolved, files map[string]bool
	stats                    map[string]int
	sources                  map[string][]string
}

// source returns the lines of a repository file.
func (o *oracle) source(repo, file string) []string {
	if lines, ok := o.sources[file]; ok {
		return lines
	}
	b, _ := os.ReadFile(filepath.Join(repo, file))
	lines := strings.Split(string(b), "\n")
	o.sources[file] = lines
	return lines
}

// crate compiles one crate twice (rustdoc JSON, MIR) and adds its calls.
func (o *oracle) crate(toolchain, repo string, c crateSpec) error {
	dir := filepath.Join(repo, c.dir)
	tmp, err := os.MkdirTemp("", "rust-oracle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	common := []string{"+" + toolchain, "--edition", c.edition, "--crate-type", "lib", "--crate-name", c.name, "--cap-lints", "allow"}
	for _, f := range c.features {
		common = append(common, "--cfg", `feature="`+f+`"`)
	}
	doc := exec.Command("rustdoc", append(append([]string(nil), common...), "--cfg", "test", "-Zunstable-options",
		"--output-format", "json", "--document-private-items", "-o", tmp, "src/lib.rs")...)
	doc.Dir = dir
	if out, err := doc.CombinedOutput(); err != nil {
		return fmt.Errorf("rustdoc: %w\n%s", err, out)
	}
	mirPath := filepath.Join(tmp, "crate.mir")
	mir := exec.Command("rustc", append(append([]string(nil), common...), "--test", "-Zunpretty=mir", "-Zmir-opt-level=0",
		"-Zmir-include-spans=on", "-Ztrim-diagnostic-paths=false", "-o", mirPath, "src/lib.rs")...)
	mir.Dir = dir
	if out, err := mir.CombinedOutput(); err != nil {
		return fmt.Errorf("rustc: %w\n%s", err, out)
	}
	d, err := loadDoc(filepath.Join(tmp, c.name+".json"), c.dir)
	if err != nil {
		return err
	}
	for _, f := range d.files {
		o.files[f] = true
	}
	f, err := os.Open(mirPath)
	if err != nil {
		return err
	}
	defer f.Close()
	return o.readMIR(f, d, repo, c.dir)
}

type endpoint struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Name string `json:"name"`
}

type site struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type edge struct {
	Caller endpoint `json:"caller"`
	Callee endpoint `json:"callee"`
	Kind   string   `json:"kind"`
	Site   site     `json:"site"`
}

// readMIR walks the bodies of the MIR dump and resolves each call.
func (o *oracle) readMIR(r *os.File, d *docIndex, repo, crateDir string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	caller := endpoint{}
	inBody := false
	for sc.Scan() {
		line := sc.Text()
		if body, ok := bodyHeader(line); ok {
			inBody = true
			caller = body
			continue
		}
		if !inBody {
			continue
		}
		call, ok := parseCall(line)
		if !ok {
			continue
		}
		file := filepath.ToSlash(filepath.Join(crateDir, call.file))
		if !o.files[file] {
			o.stats["sites outside the crate's files (macro bodies)"]++
			continue
		}
		from := caller
		from.File = file
		if from.Name != "" {
			from.Line = call.line
		}
		at := site{File: file, Line: call.line}
		static, dispatch, status := d.resolve(call.callee)
		if len(static) > 0 && !explicit(o.source(repo, file), call, static[0].Name) {
			o.stats["calls the compiler adds (for loops, operators, derefs)"]++
			continue
		}
		o.stats["callee "+status]++
		switch status {
		case "unresolved", "indirect":
			b, _ := json.Marshal(struct {
				Site   site   `json:"site"`
				Status string `json:"status"`
				Callee string `json:"callee"`
			}{at, status, call.callee})
			o.unresolved[string(b)] = true
			continue
		}
		for _, t := range static {
			o.add(edge{Caller: from, Callee: t, Kind: "static", Site: at})
		}
		for _, t := range dispatch {
			o.add(edge{Caller: from, Callee: t, Kind: "dispatch", Site: at})
		}
	}
	return sc.Err()
}

func (o *oracle) add(e edge) {
	b, _ := json.Marshal(e)
	o.edges[string(b)] = true
	o.stats["edges "+e.Kind]++
}

// bodyHeader reads the header of a MIR body: "fn a::b::<impl at f.rs:3:1:
// 3:9>::m(...) -> T {" is the body of m; closures belong to the function
// around them; a const or static initializer belongs to the file.
func bodyHeader(line string) (endpoint, bool) {
	switch {
	case strings.HasPrefix(line, "fn "):
		path := line[3:]
		if i := topIndex(path, '('); i >= 0 {
			path = path[:i]
		}
		segs := splitPath(path)
		for i := len(segs) - 1; i >= 0; i-- {
			s := segs[i]
			if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "<") || s == "" {
				continue
			}
			if j := strings.IndexByte(s, '<'); j > 0 {
				s = s[:j]
			}
			return endpoint{Name: strings.TrimPrefix(s, "r#")}, true
		}
		return endpoint{}, true
	case strings.HasPrefix(line, "const "), strings.HasPrefix(line, "static "):
		return endpoint{}, true
	}
	return endpoint{}, false
}

type callLine struct {
	callee string
	file   string
	line   int
	// col, endLine, endCol end the span (1-based columns).
	col, endLine, endCol int
}

// parseCall reads a call terminator: "_3 = CALLEE(args) -> [return: bb1,
// unwind continue]; // scope 0 at src/x.rs:12:5: 12:14".
func parseCall(line string) (callLine, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "_") {
		return callLine{}, false
	}
	eq := strings.Index(t, " = ")
	if eq < 0 {
		return callLine{}, false
	}
	rest := t[eq+3:]
	open := topIndex(rest, '(')
	if open <= 0 {
		return callLine{}, false
	}
	callee := rest[:open]
	close := matching(rest, open)
	if close < 0 || !strings.HasPrefix(rest[close+1:], " -> ") {
		return callLine{}, false
	}
	after := rest[close+5:]
	if !strings.HasPrefix(after, "[return") && !strings.HasPrefix(after, "unwind") {
		return callLine{}, false
	}
	at := strings.LastIndex(t, "// scope ")
	if at < 0 {
		return callLine{}, false
	}
	loc := t[at:]
	i := strings.Index(loc, " at ")
	if i < 0 {
		return callLine{}, false
	}
	// "src/x.rs:12:5: 13:14"
	parts := strings.Split(strings.ReplaceAll(loc[i+4:], " ", ""), ":")
	if len(parts) < 5 {
		return callLine{}, false
	}
	var n [4]int
	for j := range n {
		if _, err := fmt.Sscanf(parts[j+1], "%d", &n[j]); err != nil {
			return callLine{}, false
		}
	}
	return callLine{callee: callee, file: parts[0], line: n[0], col: n[1], endLine: n[2], endCol: n[3]}, true
}

// explicit reports whether the span of a call is a call written in the
// source: its text names the callee before an argument list (`f(`,
// `x.f(`, `T::f::<U>(`). Calls the compiler adds (a for loop's next, an
// operator's add, an index's index, a deref) have spans without it.
func explicit(src []string, c callLine, name string) bool {
	if c.line < 1 || c.endLine > len(src) || c.endLine < c.line {
		return false
	}
	var text strings.Builder
	for l := c.line; l <= c.endLine; l++ {
		s := src[l-1]
		from, to := 0, len(s)
		if l == c.line {
			from = min(max(c.col-1, 0), len(s))
		}
		if l == c.endLine {
			to = min(max(c.endCol-1, from), len(s))
		}
		text.WriteString(s[from:to])
		text.WriteByte('\n')
	}
	t := text.String()
	for i := strings.Index(t, name); i >= 0; {
		rest := strings.TrimLeft(t[i+len(name):], " \t\n")
		before := i == 0 || !isIdentByte(t[i-1])
		if before && (strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "::<")) {
			return true
		}
		j := strings.Index(t[i+1:], name)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// topIndex is the first c outside <...>, (...) and [...].
func topIndex(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			if depth == 0 {
				return i
			}
			if c == '(' {
				depth++
			}
		case '<', '(', '[':
			depth++
		case '>':
			if i > 0 && s[i-1] == '-' {
				continue
			}
			depth--
		case ')', ']':
			depth--
		}
	}
	return -1
}

// matching is the index of the parenthesis closing the one at open.
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitPath splits a path at the "::" outside angle brackets.
func splitPath(p string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '<':
			depth++
		case '>':
			if i > 0 && p[i-1] == '-' {
				continue
			}
			depth--
		case ':':
			if depth == 0 && i+1 < len(p) && p[i+1] == ':' {
				out = append(out, p[start:i])
				start = i + 2
				i++
			}
		}
	}
	return append(out, p[start:])
}
