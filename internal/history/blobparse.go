package history

import (
	"fmt"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// blobParser turns blobs into symbol tables for one worker: the language
// extractors and, for extractors that read trees, a parser per grammar,
// so that the top-level nodes of each version are known and the version
// before a commit can be derived from the version after it (derive.go).
type blobParser struct {
	extractors map[string]lang.Extractor
	parsers    map[*ts.Language]*lang.TreeParser
	// full forces whole-file extraction (tests compare it with derivation).
	full bool
}

func newBlobParser(full bool) *blobParser {
	return &blobParser{extractors: map[string]lang.Extractor{}, parsers: map[*ts.Language]*lang.TreeParser{}, full: full}
}

func (b *blobParser) close() {
	for _, ex := range b.extractors {
		ex.Close()
	}
	for _, p := range b.parsers {
		p.Close()
	}
}

func (b *blobParser) extractor(l lang.Language) (lang.Extractor, error) {
	if ex, ok := b.extractors[l.Name()]; ok {
		return ex, nil
	}
	ex, err := l.NewExtractor()
	if err != nil {
		return nil, fmt.Errorf("%s extractor: %w", l.Name(), err)
	}
	b.extractors[l.Name()] = ex
	return ex, nil
}

func (b *blobParser) treeParser(g *ts.Language) (*lang.TreeParser, error) {
	if p, ok := b.parsers[g]; ok {
		return p, nil
	}
	p, err := lang.NewTreeParser(g)
	if err != nil {
		return nil, err
	}
	b.parsers[g] = p
	return p, nil
}

// parse reads a whole blob. A panic in an extractor is an error for that
// blob only.
func (b *blobParser) parse(l lang.Language, path string, src []byte) (t *symbolTable, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("extract %s: %v", path, p)
		}
	}()
	ex, err := b.extractor(l)
	if err != nil {
		return nil, err
	}
	tx, ok := ex.(lang.TreeExtractor)
	if !ok {
		f, err := ex.Extract(path, src)
		if err != nil {
			return nil, err
		}
		return newSymbolTable(f, nil), nil
	}
	f, tops, err := b.extractTree(l, tx, path, src)
	if err != nil {
		return nil, err
	}
	return newSymbolTable(f, tops), nil
}

// extractTree parses src, lists its top-level nodes (none when they are
// not known to stand alone: a syntax error, lang.StandAloneTree) and
// extracts it.
func (b *blobParser) extractTree(l lang.Language, tx lang.TreeExtractor, path string, src []byte) (*lang.FileFacts, []lineRange, error) {
	tp, err := b.treeParser(tx.Grammar(path))
	if err != nil {
		return nil, nil, err
	}
	tree, err := tp.Parse(path, src)
	if err != nil {
		return nil, nil, err
	}
	defer tree.Close()
	var f *lang.FileFacts
	if sr, ok := tx.(lang.SymbolReader); ok {
		f, err = sr.ExtractSymbols(path, src, tree)
	} else {
		f, err = tx.ExtractTree(path, src, tree)
	}
	if err != nil {
		return nil, nil, err
	}
	root := tree.RootNode()
	var tops []lineRange
	if sa, ok := l.(lang.StandAloneTree); !root.HasError() && (!ok || sa.StandsAlone(root)) {
		tops = topLevelLines(root)
	}
	return f, tops, nil
}

// topLevelLines lists the lines of a root's children, ascending.
func topLevelLines(root *ts.Node) []lineRange {
	n := root.ChildCount()
	tops := make([]lineRange, 0, n)
	for i := uint(0); i < n; i++ {
		c := root.Child(i)
		if c == nil {
			continue
		}
		start, end := c.StartPosition(), c.EndPosition()
		r := lineRange{start: int32(start.Row) + 1, end: int32(end.Row) + 1}
		if end.Column == 0 && end.Row > start.Row {
			r.end-- // ends with its newline
		}
		tops = append(tops, r)
	}
	return tops
}
