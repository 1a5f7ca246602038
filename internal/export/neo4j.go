// Package export writes a repository's graph in formats other tools load.
// For now one: the CSV files and headers of Neo4j's bulk import
// (`neo4j-admin database import full`), with a Cypher file of constraints
// and indexes and the command line that loads them (docs/neo4j.md).
package export

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// FileSummary is one file an export wrote.
type FileSummary struct {
	Name string `json:"name"` // in the output folder
	// Label is the node label of a node file, Type the relationship type
	// of a relationship file.
	Label string `json:"label,omitempty"`
	Type  string `json:"type,omitempty"`
	Rows  int    `json:"rows"`
}

// Summary is what an export wrote.
type Summary struct {
	Dir           string        `json:"dir"`
	Nodes         []FileSummary `json:"nodes"`         // by label, in graph.AllKinds order
	Relationships []FileSummary `json:"relationships"` // by type, in graph.AllEdgeTypes order
	Files         []string      `json:"files"`         // the other files: schema, script, readme
	NodeCount     int           `json:"nodeCount"`
	RelCount      int           `json:"relationshipCount"`
	// Warnings say what Neo4j will not read back as the index holds it.
	Warnings []string `json:"warnings,omitempty"`
}

// Names of the files an export writes beside the CSV files.
const (
	SchemaFile = "schema.cypher"
	ImportFile = "import.sh"
	ReadmeFile = "README.txt"
)

// NodeFile names the CSV file of the nodes of a label.
func NodeFile(label string) string { return "nodes_" + label + ".csv" }

// RelFile names the CSV file of the relationships of a type.
func RelFile(typ string) string { return "relationships_" + typ + ".csv" }

// Neo4j writes the graph of the index r reads into dir (created when
// missing; files of the same names are replaced) as the CSV files of
// neo4j-admin's bulk import: one file of nodes per label, one of
// relationships per type, plus schema.cypher, import.sh and README.txt.
//
// The graph is loaded once (memgraph, as queries load it); rows are
// written as they are read, the nodes' text (content, doc) streamed from
// the store, so no row is held beyond the one being written.
func Neo4j(ctx context.Context, r *store.Reader, dir string) (Summary, error) {
	sum := Summary{Dir: dir}
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		return sum, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sum, fmt.Errorf("create %s: %w", dir, err)
	}
	var written []string
	ok := false
	defer func() {
		if !ok { // leave no half export that looks whole
			for _, name := range written {
				os.Remove(filepath.Join(dir, name))
			}
		}
	}()
	nodes, err := writeNodes(ctx, r, g, dir, &sum)
	written = append(written, nodes...)
	if err != nil {
		return sum, err
	}
	rels, err := writeRelationships(ctx, g, dir, &sum)
	written = append(written, rels...)
	if err != nil {
		return sum, err
	}
	for _, f := range []struct {
		name string
		text string
		mode os.FileMode
	}{
		{SchemaFile, schemaCypher(&sum), 0o644},
		{ImportFile, importScript(&sum), 0o755},
		{ReadmeFile, readme(&sum, g.Meta()), 0o644},
	} {
		written = append(written, f.name)
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.text), f.mode); err != nil {
			return sum, fmt.Errorf("write %s: %w", f.name, err)
		}
		sum.Files = append(sum.Files, f.name)
	}
	ok = true
	return sum, nil
}

// errChanged means the index changed while it was exported.
var errChanged = errors.New("the index changed during the export (a re-index ran): export again")

// writeNodes writes one file per label, in id order, and returns the
// names of the files it created.
func writeNodes(ctx context.Context, r *store.Reader, g *memgraph.Graph, dir string, sum *Summary) ([]string, error) {
	type labelFile struct {
		*csvFile
		cols   []nodeColumn
		labels string
	}
	files := make(map[graph.NodeKind]*labelFile)
	var created []string
	closeAll := func() error {
		var first error
		for _, k := range graph.AllKinds() {
			if f := files[k]; f != nil {
				if err := f.close(); err != nil && first == nil {
					first = err
				}
			}
		}
		return first
	}
	for _, k := range graph.AllKinds() {
		if len(g.ByKind(k)) == 0 {
			continue
		}
		name := NodeFile(k.String())
		cols := columnsOf(k)
		header := make([]string, 0, len(cols)+1)
		for _, c := range cols {
			header = append(header, c.header())
		}
		header = append(header, ":LABEL")
		f, err := createCSV(filepath.Join(dir, name), name, header)
		if err != nil {
			closeAll()
			return created, err
		}
		created = append(created, name)
		files[k] = &labelFile{csvFile: f, cols: cols, labels: labelsOf(k)}
	}
	var row csvRow
	split := map[string]bool{}
	var splitAny bool
	count := 0
	meta, err := r.Consistent(ctx, func(v *store.Reader) error {
		return v.ScanNodeText(ctx, func(rid int64, content, doc string) error {
			n, ok := g.NodeOfRid(rid)
			if !ok {
				return errChanged
			}
			node := &g.Nodes[n]
			f := files[node.Kind]
			if f == nil {
				return fmt.Errorf("node %s has no label of this program's: run `gitnexus analyze --force`", node.ID)
			}
			cell := nodeCell{g: g, n: n, node: node, content: content, doc: doc, split: &splitAny}
			row.reset()
			for _, c := range f.cols {
				splitAny = false
				c.write(&row, &cell)
				if splitAny {
					split[node.Kind.String()+"."+c.name] = true
				}
			}
			row.str(f.labels)
			count++
			return f.write(&row)
		})
	})
	if cerr := closeAll(); err == nil {
		err = cerr
	}
	if err != nil {
		return created, fmt.Errorf("export nodes: %w", err)
	}
	if meta.Generation != g.Meta().Generation || count != g.Len() {
		return created, fmt.Errorf("export nodes: %w", errChanged)
	}
	for _, k := range graph.AllKinds() {
		if f := files[k]; f != nil {
			sum.Nodes = append(sum.Nodes, FileSummary{Name: f.name, Label: k.String(), Rows: f.rows})
			sum.NodeCount += f.rows
		}
	}
	if row.invalid > 0 {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("%d strings of nodes held bytes that are not UTF-8: "+
			"they are written with U+FFFD in their place", row.invalid))
	}
	for _, p := range sortedKeys(split) {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("some values of %s hold %q, the array delimiter: Neo4j reads each as two elements",
			p, string(arrayDelimiter)))
	}
	return created, nil
}

// writeRelationships writes one file per relationship type, by source
// node in id order, and returns the names of the files it created.
func writeRelationships(ctx context.Context, g *memgraph.Graph, dir string, sum *Summary) ([]string, error) {
	// A first pass finds the types present and those with further lines
	// (the moreLines column).
	var present, more [256]bool
	for n := range g.Nodes {
		for _, e := range g.Out(memgraph.NodeID(n)) {
			present[e.Type] = true
			if !more[e.Type] && len(g.Lines(e)) > 1 {
				more[e.Type] = true
			}
		}
	}
	type typeFile struct {
		*csvFile
		cols []relColumn
		typ  string
	}
	var files [256]*typeFile
	var created []string
	closeAll := func() error {
		var first error
		for _, f := range files {
			if f != nil {
				if err := f.close(); err != nil && first == nil {
					first = err
				}
			}
		}
		return first
	}
	for _, t := range graph.AllEdgeTypes() {
		if !present[t] {
			continue
		}
		name := RelFile(t.String())
		cols := relColumnsOf(t, more[t])
		header := []string{":START_ID", ":END_ID", ":TYPE"}
		for _, c := range cols {
			header = append(header, c.header())
		}
		f, err := createCSV(filepath.Join(dir, name), name, header)
		if err != nil {
			closeAll()
			return created, err
		}
		created = append(created, name)
		files[t] = &typeFile{csvFile: f, cols: cols, typ: t.String()}
	}
	var row csvRow
	err := func() error {
		for n := range g.Nodes {
			if n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			src := memgraph.NodeID(n)
			for _, e := range g.Out(src) {
				f := files[e.Type]
				if f == nil {
					return fmt.Errorf("edge %s -> %s has a type this program does not know: run `gitnexus analyze --force`",
						g.Nodes[src].ID, g.Nodes[e.To].ID)
				}
				cell := relCell{g: g, src: src, e: e}
				switch e.Type {
				case graph.EdgeModifies:
					cell.file = g.FileChange(src, e.To)
				case graph.EdgeChanges:
					cell.symbol = g.SymbolChange(src, e.To)
				}
				row.reset()
				row.str(g.Nodes[src].ID)
				row.str(g.Nodes[e.To].ID)
				row.str(f.typ)
				for _, c := range f.cols {
					c.write(&row, &cell)
				}
				if err := f.write(&row); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	if cerr := closeAll(); err == nil {
		err = cerr
	}
	if err != nil {
		return created, fmt.Errorf("export relationships: %w", err)
	}
	if row.invalid > 0 {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("%d strings of relationships held bytes that are not UTF-8: "+
			"they are written with U+FFFD in their place", row.invalid))
	}
	for _, t := range graph.AllEdgeTypes() {
		if f := files[t]; f != nil {
			sum.Relationships = append(sum.Relationships, FileSummary{Name: f.name, Type: f.typ, Rows: f.rows})
			sum.RelCount += f.rows
		}
	}
	return created, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
