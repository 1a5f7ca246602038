package analysis

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// A rename edits exactly the positions it can name: the definition and
// every reference site the graph resolved to the symbol (tagged "graph"),
// plus, on request, other whole-identifier occurrences found by scanning the
// repository's files (tagged "text_search"), minus the positions that belong
// to other symbols of the same name. Nothing else in a file changes.

// RenameOptions configure a rename.
type RenameOptions struct {
	NewName string
	DryRun  bool
	// IncludeTextMatches applies the text_search edits too; they are
	// always listed.
	IncludeTextMatches bool
	// MaxTextMatches bounds the text_search edits listed.
	MaxTextMatches int
	// PlanDeadline is when a plan (DryRun) stops its text search, the
	// files read so far said in the answer; zero: no limit. An applied
	// rename always searches every file.
	PlanDeadline time.Time
}

// PlanTime is how long a rename plan may take before its text search
// stops: the whole Go standard library does not fit in it.
const PlanTime = 150 * time.Millisecond

// position is a place in a file: a line, and a column (0 for the line).
type position struct {
	file         string
	line, column int
}

// Edit tags.
const (
	TagGraph      = "graph"
	TagTextSearch = "text_search"
	// TagReview marks occurrences on a line where the graph knows a
	// reference to the symbol and one to another symbol of the same name
	// (u.save(); o.save()): sites are known by line, not column, so these
	// are listed for an edit by hand and never applied.
	TagReview = "review"
)

// Edit is one replacement of the old name at a position.
type Edit struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"` // 1-based, in bytes
	Old     string `json:"old"`
	New     string `json:"new"`
	Tag     string `json:"tag"`
	Context string `json:"context"`
	Applied bool   `json:"applied,omitempty"`
	offset  int
}

// RenameResult is a rename's plan, and what was applied.
type RenameResult struct {
	Status          string      `json:"status"` // planned, applied, ambiguous
	Symbol          *SymbolInfo `json:"symbol,omitempty"`
	Candidates      []Candidate `json:"candidates,omitempty"`
	TotalCandidates int         `json:"totalCandidates,omitempty"`
	NewName         string      `json:"new_name"`
	DryRun          bool        `json:"dry_run"`
	Edits           []Edit      `json:"edits"`
	GraphEdits      int         `json:"graph_edits"`
	ReviewEdits     int         `json:"review_edits,omitempty"`
	TextEdits       int         `json:"text_search_edits"`
	TextTruncated   bool        `json:"text_search_truncated,omitempty"`
	// TextSearched of TextFiles files were searched, when the plan's time
	// for the text search ran out first.
	TextSearched int      `json:"text_search_files_searched,omitempty"`
	TextFiles    int      `json:"text_search_files,omitempty"`
	Applied      int      `json:"applied"`
	FilesChanged []string `json:"files_changed"`
	Warnings     []string `json:"warnings,omitempty"`
}

var tagOrder = map[string]int{TagGraph: 0, TagReview: 1, TagTextSearch: 2}

// DefaultMaxTextMatches bounds the text_search edits a rename lists.
const DefaultMaxTextMatches = 500

// ErrInvalidName is a new name that cannot be used.
var ErrInvalidName = errors.New("invalid new name")

// Rename plans (and unless DryRun, applies) renaming node target of the
// repository at root to opt.NewName. files lists the repository's files
// for the text search; it is called when that search starts, so that the
// caller may list them while the graph's edits are read.
func Rename(ctx context.Context, g *memgraph.Graph, root string, target memgraph.NodeID, files func() ([]string, error), opt RenameOptions) (*RenameResult, error) {
	sym := &g.Nodes[target]
	if !sym.Kind.IsSymbol() {
		return nil, inputErrorf("%s is a %s; only code symbols can be renamed", sym.ID, sym.Kind)
	}
	old := sym.Name
	if err := validName(opt.NewName, sym.Language); err != nil {
		return nil, err
	}
	if opt.NewName == old {
		return nil, fmt.Errorf("%w: %q is already the name", ErrInvalidName, old)
	}
	if opt.MaxTextMatches <= 0 {
		opt.MaxTextMatches = DefaultMaxTextMatches
	}
	if c := collision(g, target, opt.NewName); c != "" {
		return nil, fmt.Errorf("%w: %s", ErrInvalidName, c)
	}
	info := Info(g, target)
	res := &RenameResult{Status: "planned", Symbol: &info, NewName: opt.NewName, DryRun: opt.DryRun,
		Edits: []Edit{}, FilesChanged: []string{}}
	src := &sources{root: root, cache: map[string][][]byte{}}
	seen := map[position]bool{}
	add := func(e Edit) {
		k := position{e.File, e.Line, e.Column}
		if seen[k] {
			return
		}
		seen[k] = true
		res.Edits = append(res.Edits, e)
	}
	ident := identChars(sym.Language)

	// The definition, and for a class its constructors named after it.
	defs := []memgraph.NodeID{target}
	for _, e := range g.Out(target) {
		if e.Type == graph.EdgeHasMethod && g.Nodes[e.To].Kind == graph.KindConstructor && g.Nodes[e.To].Name == old {
			defs = append(defs, e.To)
		}
	}
	for _, d := range defs {
		nd := &g.Nodes[d]
		if e, ok := src.first(nd.FilePath, int(nd.StartLine), int(nd.EndLine), old, ident); ok {
			e.New, e.Tag = opt.NewName, TagGraph
			add(e)
		} else {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the name %q was not found in the declaration at %s:%d (is the index stale? run `gitnexus analyze`)", old, nd.FilePath, nd.StartLine))
		}
	}
	// Reference sites the graph resolved to the symbol.
	homonymLines := homonymSites(g, src, target, old)
	for _, d := range defs {
		for _, e := range g.In(d) {
			from := &g.Nodes[e.To]
			switch e.Type {
			case graph.EdgeCalls, graph.EdgeReferences:
				for _, line := range g.Lines(e) {
					eds := src.onLine(from.FilePath, int(line), old, ident)
					tag := TagGraph
					if len(eds) > 1 && homonymLines[position{from.FilePath, int(line), 0}] {
						tag = TagReview
					}
					for _, ed := range eds {
						ed.New, ed.Tag = opt.NewName, tag
						add(ed)
					}
				}
			case graph.EdgeExtends, graph.EdgeImplements:
				if g.Reason(e) == graph.ReasonMethodSet {
					continue // Go's implicit satisfaction: nothing written
				}
				if ed, ok := src.first(from.FilePath, int(from.StartLine), int(from.StartLine)+3, old, ident); ok {
					ed.New, ed.Tag = opt.NewName, TagGraph
					add(ed)
				}
			}
		}
	}
	for _, e := range res.Edits {
		if e.Tag == TagGraph {
			res.GraphEdits++
		} else {
			res.ReviewEdits++
		}
	}
	if res.ReviewEdits > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d position(s) tagged review share a line with a same-named other symbol's reference; they are not applied: edit them by hand", res.ReviewEdits))
	}
	if w := related(g, target); w != "" {
		res.Warnings = append(res.Warnings, w)
	}

	// Text matches elsewhere, minus positions of homonyms, until there are
	// as many as the answer lists (or, in a plan, the time is up).
	listed, err := files()
	if err != nil {
		return nil, err
	}
	for i, f := range listed {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if res.TextTruncated {
			break
		}
		if opt.DryRun && !opt.PlanDeadline.IsZero() && time.Now().After(opt.PlanDeadline) {
			res.TextSearched, res.TextFiles = i, len(listed)
			break
		}
		for _, ed := range src.all(f, old, ident) {
			if seen[position{ed.File, ed.Line, ed.Column}] || homonymLines[position{ed.File, ed.Line, 0}] {
				continue
			}
			if res.TextEdits == opt.MaxTextMatches {
				res.TextTruncated = true
				break
			}
			ed.New, ed.Tag = opt.NewName, TagTextSearch
			add(ed)
			res.TextEdits++
		}
	}
	slices.SortStableFunc(res.Edits, func(a, b Edit) int {
		if a.Tag != b.Tag {
			return cmp.Compare(tagOrder[a.Tag], tagOrder[b.Tag])
		}
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		if a.Line != b.Line {
			return cmp.Compare(a.Line, b.Line)
		}
		return cmp.Compare(a.Column, b.Column)
	})
	if opt.DryRun {
		return res, nil
	}
	var apply []Edit
	for i := range res.Edits {
		if e := &res.Edits[i]; e.Tag == TagGraph || (opt.IncludeTextMatches && e.Tag == TagTextSearch) {
			e.Applied = true
			apply = append(apply, *e)
		}
	}
	changed, err := applyEdits(root, apply)
	if err != nil {
		return nil, err
	}
	res.Status = "applied"
	res.Applied = len(apply)
	res.FilesChanged = changed
	return res, nil
}

// validName checks a new identifier for the symbol's language.
func validName(name, language string) error {
	if name == "" {
		return fmt.Errorf("%w: it is empty", ErrInvalidName)
	}
	for i, r := range name {
		ok := r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) ||
			(r == '$' && (language == "javascript" || language == "typescript"))
		if !ok {
			return fmt.Errorf("%w: %q is not an identifier (character %q)", ErrInvalidName, name, r)
		}
	}
	if keywords[language][name] {
		return fmt.Errorf("%w: %q is a %s keyword", ErrInvalidName, name, language)
	}
	return nil
}

var keywords = map[string]map[string]bool{}

func init() {
	set := func(lang, words string) {
		m := map[string]bool{}
		for _, w := range strings.Fields(words) {
			m[w] = true
		}
		keywords[lang] = m
	}
	set("go", "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var")
	set("python", "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield")
	js := "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await"
	set("javascript", js)
	set("typescript", js+" type declare namespace abstract readonly")
	set("java", "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var record yield")
}

// collision names a symbol the new name would clash with in the renamed
// symbol's scope: the members of its type, or the top-level names of its
// package (or file, without a package).
func collision(g *memgraph.Graph, target memgraph.NodeID, name string) string {
	var owner memgraph.NodeID = ^memgraph.NodeID(0)
	for _, e := range g.In(target) {
		if e.Type == graph.EdgeHasMethod || e.Type == graph.EdgeHasProperty {
			owner = e.To
		}
	}
	if owner != ^memgraph.NodeID(0) {
		for _, e := range g.Out(owner) {
			if (e.Type == graph.EdgeHasMethod || e.Type == graph.EdgeHasProperty) && g.Nodes[e.To].Name == name {
				return fmt.Sprintf("%s already has a member %s (%s:%d)", g.Nodes[owner].QualifiedName, name, g.Nodes[e.To].FilePath, g.Nodes[e.To].StartLine)
			}
		}
		return ""
	}
	files := []memgraph.NodeID{}
	if f, ok := g.Lookup(graph.FileID(g.Nodes[target].FilePath)); ok {
		files = append(files, f)
		for _, e := range g.In(f) {
			if e.Type == graph.EdgeContains && g.Nodes[e.To].Kind == graph.KindPackage &&
				(g.Nodes[e.To].Language == "go" || g.Nodes[e.To].Language == "java") {
				files = files[:0]
				for _, pe := range g.Out(e.To) {
					if pe.Type == graph.EdgeContains {
						files = append(files, pe.To)
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, e := range g.Out(f) {
			if e.Type == graph.EdgeDefines && g.Nodes[e.To].Name == name {
				return fmt.Sprintf("%s already declares %s (%s:%d)", g.Nodes[f].FilePath, name, g.Nodes[e.To].FilePath, g.Nodes[e.To].StartLine)
			}
		}
	}
	return ""
}

// related warns when the symbol overrides or implements others (or is
// overridden): renaming one of them alone changes which method runs.
func related(g *memgraph.Graph, target memgraph.NodeID) string {
	nd := &g.Nodes[target]
	if nd.Kind != graph.KindMethod {
		return ""
	}
	var others []string
	for _, n := range g.ByName(nd.Name) {
		if n == target || g.Nodes[n].Kind != graph.KindMethod {
			continue
		}
		if sameHierarchy(g, target, n) {
			others = append(others, fmt.Sprintf("%s (%s:%d)", g.Nodes[n].QualifiedName, g.Nodes[n].FilePath, g.Nodes[n].StartLine))
		}
	}
	if len(others) == 0 {
		return ""
	}
	sort.Strings(others)
	return "other methods of the same type hierarchy share this name and are not renamed: " + strings.Join(others, ", ")
}

// sameHierarchy reports whether the owners of two methods are linked by
// EXTENDS or IMPLEMENTS, one way or the other.
func sameHierarchy(g *memgraph.Graph, a, b memgraph.NodeID) bool {
	owner := func(m memgraph.NodeID) (memgraph.NodeID, bool) {
		for _, e := range g.In(m) {
			if e.Type == graph.EdgeHasMethod {
				return e.To, true
			}
		}
		return 0, false
	}
	oa, ok1 := owner(a)
	ob, ok2 := owner(b)
	if !ok1 || !ok2 {
		return false
	}
	linked := func(x, y memgraph.NodeID) bool {
		res := g.Walk([]memgraph.NodeID{x}, memgraph.WalkOptions{Types: []graph.EdgeType{graph.EdgeExtends, graph.EdgeImplements}, MaxDepth: 6, Limit: 1000})
		for _, h := range res.Hits {
			if h.Node == y {
				return true
			}
		}
		return false
	}
	return linked(oa, ob) || linked(ob, oa)
}

// homonymSites are the file:line positions of other symbols with the same
// name: their declarations and the sites resolved to them.
func homonymSites(g *memgraph.Graph, src *sources, target memgraph.NodeID, name string) map[position]bool {
	out := map[position]bool{}
	for _, n := range g.ByName(name) {
		if n == target || !g.Nodes[n].Kind.IsSymbol() {
			continue
		}
		nd := &g.Nodes[n]
		out[position{nd.FilePath, int(nd.StartLine), 0}] = true
		// The comments, annotations and decorators just above the
		// homonym's declaration are about it.
		lines := src.lines(nd.FilePath)
		for l := int(nd.StartLine) - 1; l >= 1 && l <= len(lines) && isPreamble(lines[l-1]); l-- {
			out[position{nd.FilePath, int(l), 0}] = true
		}
		for _, e := range g.In(n) {
			if e.Type == graph.EdgeCalls || e.Type == graph.EdgeReferences {
				for _, l := range g.Lines(e) {
					out[position{g.Nodes[e.To].FilePath, int(l), 0}] = true
				}
			}
		}
	}
	return out
}

// isPreamble reports whether a line is a comment, an annotation or a
// decorator: what may stand between a declaration and its doc.
func isPreamble(line []byte) bool {
	t := bytes.TrimSpace(line)
	for _, p := range []string{"//", "#", "/*", "*", "@"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// identChars reports the characters identifiers may contain.
func identChars(language string) func(r rune) bool {
	dollar := language == "javascript" || language == "typescript"
	return func(r rune) bool {
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || (dollar && r == '$')
	}
}

// sources reads repository files as lines, once each.
type sources struct {
	root     string
	realRoot string // root with its symlinks resolved, once
	cache    map[string][][]byte
	dirs     map[string]string // folder -> its real path ("" when it leaves the repository)
}

// MaxRenameFileSize bounds the files a rename reads.
const MaxRenameFileSize = 2 << 20

func (s *sources) lines(file string) [][]byte {
	return s.linesWith(file, "")
}

// linesWith is lines, without splitting (nor keeping) a file that does not
// hold name: the text search reads every file, and most hold nothing.
func (s *sources) linesWith(file, name string) [][]byte {
	if l, ok := s.cache[file]; ok {
		return l
	}
	var out [][]byte
	if s.realRoot == "" {
		var err error
		if s.realRoot, err = filepath.EvalSymlinks(s.root); err != nil {
			s.realRoot = filepath.Clean(s.root) // refuses every file behind a symlink: safe
		}
	}
	abs, err := s.inside(file)
	if err == nil {
		if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() && fi.Size() <= MaxRenameFileSize {
			if b, err := os.ReadFile(abs); err == nil && bytes.IndexByte(b[:min(len(b), 8000)], 0) < 0 &&
				(name == "" || bytes.Contains(b, []byte(name))) {
				out = bytes.SplitAfter(b, []byte{'\n'})
			}
		}
	}
	s.cache[file] = out
	return out
}

// inside is the package's inside, resolving each folder's symlinks once:
// a file that is no symlink itself lies where its folder really is.
func (s *sources) inside(file string) (string, error) {
	if filepath.IsAbs(file) || strings.HasPrefix(filepath.Clean(file), "..") {
		return "", inputErrorf("%s is outside the repository", file)
	}
	abs := filepath.Join(s.root, filepath.FromSlash(file))
	if fi, err := os.Lstat(abs); err != nil || fi.Mode()&os.ModeSymlink != 0 {
		return insideReal(s.root, s.realRoot, file)
	}
	dir := filepath.Dir(abs)
	real, ok := s.dirs[dir]
	if !ok {
		if r, err := filepath.EvalSymlinks(dir); err == nil && (r == s.realRoot || strings.HasPrefix(r, s.realRoot+string(filepath.Separator))) {
			real = r
		}
		if s.dirs == nil {
			s.dirs = map[string]string{}
		}
		s.dirs[dir] = real
	}
	if real == "" {
		return "", inputErrorf("%s leads outside the repository", file)
	}
	return abs, nil
}

// onLine returns the whole-identifier occurrences of name on a line.
func (s *sources) onLine(file string, line int, name string, ident func(rune) bool) []Edit {
	lines := s.lines(file)
	if line < 1 || line > len(lines) {
		return nil
	}
	var out []Edit
	for _, col := range occurrences(lines[line-1], name, ident) {
		out = append(out, Edit{File: file, Line: line, Column: col + 1, Old: name,
			Context: strings.TrimSpace(string(lines[line-1]))})
	}
	return out
}

// first returns the first occurrence of name on lines from..to.
func (s *sources) first(file string, from, to int, name string, ident func(rune) bool) (Edit, bool) {
	for l := max(from, 1); l <= to; l++ {
		if eds := s.onLine(file, l, name, ident); len(eds) > 0 {
			return eds[0], true
		}
	}
	return Edit{}, false
}

// all returns every occurrence of name in a file.
func (s *sources) all(file, name string, ident func(rune) bool) []Edit {
	var out []Edit
	for i := range s.linesWith(file, name) {
		out = append(out, s.onLine(file, i+1, name, ident)...)
	}
	return out
}

// occurrences returns the byte offsets of name in line where it stands as a
// whole identifier.
func occurrences(line []byte, name string, ident func(rune) bool) []int {
	var out []int
	nb := []byte(name)
	for i := 0; ; {
		j := bytes.Index(line[i:], nb)
		if j < 0 {
			return out
		}
		at := i + j
		end := at + len(nb)
		before, _ := utf8.DecodeLastRune(line[:at])
		after, _ := utf8.DecodeRune(line[end:])
		if (at == 0 || !ident(before)) && (end == len(line) || !ident(after)) {
			out = append(out, at)
		}
		i = at + 1
	}
}

// inside resolves a repository-relative path and refuses one that leaves
// the repository (by .. or through a symlink).
func inside(root, rel string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	return insideReal(root, realRoot, rel)
}

// insideReal is inside with the root's resolved path given.
func insideReal(root, realRoot, rel string) (string, error) {
	if filepath.IsAbs(rel) || strings.HasPrefix(filepath.Clean(rel), "..") {
		return "", inputErrorf("%s is outside the repository", rel)
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if real != realRoot && !strings.HasPrefix(real, realRoot+string(filepath.Separator)) {
		return "", inputErrorf("%s leads outside the repository", rel)
	}
	return abs, nil
}

// applyEdits changes exactly the edited positions, each file rewritten by
// rename after checking that the old name is still there; a file where it
// is not is refused as a whole (it changed since the plan).
func applyEdits(root string, edits []Edit) ([]string, error) {
	byFile := map[string][]Edit{}
	for _, e := range edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	var files []string
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	type rewrite struct {
		abs  string
		data []byte
		mode os.FileMode
	}
	var plan []rewrite
	for _, f := range files {
		abs, err := inside(root, f)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, err
		}
		lines := bytes.SplitAfter(data, []byte{'\n'})
		eds := byFile[f]
		sort.Slice(eds, func(i, j int) bool {
			if eds[i].Line != eds[j].Line {
				return eds[i].Line > eds[j].Line
			}
			return eds[i].Column > eds[j].Column
		})
		for _, e := range eds {
			if e.Line < 1 || e.Line > len(lines) {
				return nil, staleErrorf("%s:%d no longer exists; the file changed since the rename was planned", f, e.Line)
			}
			l := lines[e.Line-1]
			at := e.Column - 1
			if at < 0 || at+len(e.Old) > len(l) || string(l[at:at+len(e.Old)]) != e.Old {
				return nil, staleErrorf("%s:%d:%d does not hold %q any more; the file changed since the rename was planned", f, e.Line, e.Column, e.Old)
			}
			nl := append(append(append([]byte{}, l[:at]...), e.New...), l[at+len(e.Old):]...)
			lines[e.Line-1] = nl
		}
		plan = append(plan, rewrite{abs: abs, data: bytes.Join(lines, nil), mode: fi.Mode().Perm()})
	}
	for _, w := range plan {
		tmp := w.abs + ".gitnexus-rename"
		if err := os.WriteFile(tmp, w.data, w.mode); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, w.abs); err != nil {
			os.Remove(tmp)
			return nil, err
		}
	}
	return files, nil
}
