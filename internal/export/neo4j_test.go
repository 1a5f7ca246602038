package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gitnexus.dev/gitnexus/internal/export"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// quoting is a file whose doc comment and source hold what CSV must
// quote: double quotes, commas and line breaks.
const quoting = `package store

// Quote returns "a, b", then "c".
func Quote() string {
	s := "x, \"y\""
	return s + "\n" + ` + "`z,\n\"w\"`" + `
}
`

// latin1 is a file in Latin-1, not UTF-8: its é is one byte, 0xe9, which
// the files must not hold.
const latin1 = "package store\n\n// Cafe serves caf\xe9.\nfunc Cafe() string { return \"caf\xe9\" }\n"

// exported indexes the shop with its history and a file that needs
// quoting, exports it, and returns the index and the export.
func exported(t *testing.T) (*store.Reader, string, export.Summary) {
	t.Helper()
	testrepo.Home(t)
	root, _ := testrepo.HistoryShop(t)
	testrepo.Write(t, root, map[string]string{"store/quote.go": quoting, "store/latin.go": latin1})
	testrepo.Git(t, root, "add", "-A")
	testrepo.CommitAt(t, root, "2024-01-06", "commit", "-q", "-m", "store: Quote, with \"quotes\", commas\n\nand a body")
	testrepo.IndexHistory(t, root)
	r, err := store.OpenRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	dir := filepath.Join(t.TempDir(), "out")
	sum, err := export.Neo4j(context.Background(), r, dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir, sum
}

// headerField is one field of a header line: name:type, as neo4j-admin
// reads it.
type headerField struct{ name, typ string }

// The types of the header format: property types (a missing type is
// string; [] makes an array) and the special fields.
var (
	propertyTypes = []string{"int", "long", "float", "double", "boolean", "byte", "short", "char", "string"}
	specialTypes  = []string{"ID", "LABEL", "START_ID", "END_ID", "TYPE"}
	fieldSyntax   = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)?(?::([A-Za-z_]+(?:\[\])?))?$`)
)

func parseHeader(t *testing.T, fields []string) []headerField {
	t.Helper()
	var out []headerField
	for _, f := range fields {
		m := fieldSyntax.FindStringSubmatch(f)
		if m == nil || f == "" {
			t.Fatalf("header field %q is not name:type", f)
		}
		h := headerField{name: m[1], typ: m[2]}
		switch {
		case h.typ == "":
			h.typ = "string"
		case slices.Contains(specialTypes, h.typ):
			if h.typ != "ID" && h.name != "" {
				t.Errorf("header field %q: a name is read for :ID only", f)
			}
		case slices.Contains(propertyTypes, strings.TrimSuffix(h.typ, "[]")):
		default:
			t.Errorf("header field %q: type %q is not one of the import's", f, h.typ)
		}
		if h.name == "" && !slices.Contains(specialTypes, h.typ) {
			t.Errorf("header field %q: a property needs a name", f)
		}
		out = append(out, h)
	}
	return out
}

// checkValue checks that a field parses as its header type.
func checkValue(typ, v string) error {
	if v == "" {
		return nil // no value: the property is not set
	}
	if base, ok := strings.CutSuffix(typ, "[]"); ok {
		for _, e := range strings.Split(v, ";") {
			if err := checkValue(base, e); err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	switch typ {
	case "int", "long":
		_, err = strconv.ParseInt(v, 10, 64)
	case "float", "double":
		_, err = strconv.ParseFloat(v, 64)
	case "boolean":
		if v != "true" && v != "false" {
			err = errors.New("not true or false")
		}
	}
	return err
}

// TestNeo4jFiles checks every file an export writes against the header
// format of neo4j-admin database import, and that every node and edge of
// the index is in exactly one row.
func TestNeo4jFiles(t *testing.T) {
	r, dir, sum := exported(t)
	ctx := context.Background()

	// What the index holds.
	idOf := map[int64]string{}
	wantNodes := map[string]string{} // id → label
	if err := r.ScanNodes(ctx, func(n *store.NodeRow) error {
		idOf[n.Rid], wantNodes[n.ID] = n.ID, n.Kind
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	wantEdges := map[string]int{} // "src type dst" → count
	if err := r.ScanEdges(ctx, func(e *store.EdgeRow) error {
		wantEdges[idOf[e.Src]+" "+e.Type+" "+idOf[e.Dst]]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	gotNodes := map[string]int{}
	gotEdges := map[string]int{}
	labels := map[string]bool{}
	type fileCase struct {
		name  string
		rel   bool
		label string // label or type the file is for
		rows  int    // as the summary says
	}
	var cases []fileCase
	for _, f := range sum.Nodes {
		cases = append(cases, fileCase{f.Name, false, f.Label, f.Rows})
	}
	for _, f := range sum.Relationships {
		cases = append(cases, fileCase{f.Name, true, f.Type, f.Rows})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	csvFiles := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".csv") {
			csvFiles++
		}
	}
	if csvFiles != len(cases) {
		t.Errorf("%d CSV files in the folder, the summary names %d", csvFiles, len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, c.name))
			if err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(b) {
				t.Error("not UTF-8, which the import reads")
			}
			cr := csv.NewReader(bytes.NewReader(b)) // rows must have as many fields as the header
			raw, err := cr.Read()
			if err != nil {
				t.Fatal(err)
			}
			header := parseHeader(t, raw)
			count := func(typ string) int {
				n := 0
				for _, h := range header {
					if h.typ == typ {
						n++
					}
				}
				return n
			}
			if c.rel {
				if count("START_ID") != 1 || count("END_ID") != 1 || count("TYPE") != 1 || count("ID") != 0 || count("LABEL") != 0 {
					t.Errorf("relationship header %v: one :START_ID, :END_ID and :TYPE, no :ID or :LABEL", raw)
				}
			} else {
				if count("ID") != 1 || header[0] != (headerField{"id", "ID"}) || count("LABEL") != 1 || count("START_ID")+count("END_ID")+count("TYPE") != 0 {
					t.Errorf("node header %v: one id:ID first, one :LABEL, no relationship fields", raw)
				}
			}
			rows := 0
			for {
				rec, err := cr.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("row %d: %v", rows+1, err)
				}
				rows++
				var id, src, dst, typ string
				for i, h := range header {
					v := rec[i]
					if err := checkValue(h.typ, v); err != nil {
						t.Errorf("row %d, %s:%s = %q: %v", rows, h.name, h.typ, v, err)
					}
					switch h.typ {
					case "ID":
						id = v
					case "START_ID":
						src = v
					case "END_ID":
						dst = v
					case "TYPE":
						typ = v
					case "LABEL":
						ls := strings.Split(v, ";")
						if ls[0] != c.label {
							t.Errorf("row %d: labels %q in the file of %s", rows, v, c.label)
						}
						for _, l := range ls {
							labels[l] = true
						}
					}
				}
				if c.rel {
					if typ != c.label || src == "" || dst == "" {
						t.Errorf("row %d: %q -[%s]-> %q in the file of %s", rows, src, typ, dst, c.label)
					}
					gotEdges[src+" "+typ+" "+dst]++
				} else {
					if wantNodes[id] != c.label {
						t.Errorf("row %d: node %q is a %q in the index", rows, id, wantNodes[id])
					}
					gotNodes[id]++
				}
			}
			if rows != c.rows {
				t.Errorf("%d rows, the summary says %d", rows, c.rows)
			}
		})
	}

	if len(gotNodes) != len(wantNodes) || sum.NodeCount != len(wantNodes) {
		t.Errorf("%d nodes exported (summary: %d), the index has %d", len(gotNodes), sum.NodeCount, len(wantNodes))
	}
	for id, n := range gotNodes {
		if n != 1 {
			t.Errorf("node %s exported %d times", id, n)
		}
	}
	for id := range wantNodes {
		if gotNodes[id] == 0 {
			t.Errorf("node %s not exported", id)
		}
	}
	if len(gotEdges) != len(wantEdges) || sum.RelCount != len(wantEdges) {
		t.Errorf("%d relationships exported (summary: %d), the index has %d", len(gotEdges), sum.RelCount, len(wantEdges))
	}
	for k, n := range gotEdges {
		if n != 1 || wantEdges[k] != 1 {
			t.Errorf("edge %s: exported %d times, %d in the index", k, n, wantEdges[k])
		}
	}
	for k := range wantEdges {
		if gotEdges[k] == 0 {
			t.Errorf("edge %s not exported", k)
		}
	}
	// The fixture has every part of the graph the files can hold.
	for _, l := range []string{"File", "Function", "Method", "Commit", "Community", "Process", "Package", "Module", "HistoricalSymbol"} {
		if !labels[l] {
			t.Errorf("no node labelled %s", l)
		}
	}
}

// readNodes reads a CSV file into maps of property name → value; the
// fields with no name (:START_ID, :TYPE, ...) by their type.
func readNodes(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			name, typ, _ := strings.Cut(h, ":")
			if name == "" {
				name = typ
			}
			m[name] = rec[i]
		}
		out = append(out, m)
	}
	return out
}

// TestNeo4jValues checks the values of properties our Cypher engine
// gives, as the files hold them: text with quotes, commas and line
// breaks comes back whole; commits, communities and relationships carry
// their own properties.
func TestNeo4jValues(t *testing.T) {
	r, dir, _ := exported(t)
	find := func(rows []map[string]string, key, value string) map[string]string {
		t.Helper()
		for _, m := range rows {
			if m[key] == value {
				return m
			}
		}
		t.Fatalf("no row with %s = %q", key, value)
		return nil
	}
	fns := readNodes(t, filepath.Join(dir, export.NodeFile("Function")))
	quote := find(fns, "id", "Function:store/quote.go:Quote")
	var rid int64
	if err := r.ScanNodes(context.Background(), func(n *store.NodeRow) error {
		if n.ID == quote["id"] {
			rid = n.Rid
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	content, doc, err := r.NodeText(context.Background(), rid)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(content, "\"x, \\\"y\\\"\"") || !strings.Contains(content, "\n") || !strings.Contains(doc, `"a, b"`) {
		t.Fatalf("the fixture lost its quotes: content %q, doc %q", content, doc)
	}
	for _, c := range []struct{ prop, want string }{
		{"content", content},
		{"doc", doc},
		{"name", "Quote"},
		{"filePath", "store/quote.go"},
		{"file_path", "store/quote.go"},
		{"startLine", "4"},
		{"line", "4"},
		{"isExported", "true"},
		{"language", "go"},
	} {
		if got := quote[c.prop]; got != c.want {
			t.Errorf("Quote.%s = %q, want %q", c.prop, got, c.want)
		}
	}

	commits := readNodes(t, filepath.Join(dir, export.NodeFile("Commit")))
	c := find(commits, "subject", `store: Quote, with "quotes", commas`)
	if c["message"] != "store: Quote, with \"quotes\", commas\n\nand a body\n" && c["message"] != "store: Quote, with \"quotes\", commas\n\nand a body" {
		t.Errorf("commit message %q", c["message"])
	}
	if len(c["parents"]) != 40 || c["isMerge"] != "false" || c["authoredAt"] != "2024-01-06T09:00:00Z" || c["authorName"] != "Zoë Ünal" {
		t.Errorf("commit %v", c)
	}

	comms := readNodes(t, filepath.Join(dir, export.NodeFile("Community")))
	if len(comms) == 0 || comms[0]["label"] == "" || comms[0]["symbolCount"] == "" || comms[0]["cohesion"] == "" {
		t.Errorf("communities %v", comms)
	}

	// Store.Get is called twice from Service.Place: one relationship,
	// with its further line.
	calls := readNodes(t, filepath.Join(dir, export.RelFile("CALLS")))
	var get map[string]string
	for _, m := range calls {
		if m["START_ID"] == "Method:order/order.go:Service.Place" && m["END_ID"] == "Method:store/store.go:Store.Get" {
			get = m
		}
	}
	if get == nil || get["TYPE"] != "CALLS" || get["moreLines"] == "" || strings.Contains(get["moreLines"], ";") ||
		get["reason"] == "" || get["confidence"] == "" || get["line"] == "0" {
		t.Errorf("Service.Place calls Store.Get: %v", get)
	}
	mods := readNodes(t, filepath.Join(dir, export.RelFile("MODIFIES")))
	mv := find(mods, "oldPath", "cache/cache.go")
	if mv["changeType"] != "R" || mv["path"] != "cache/memo.go" || mv["END_ID"] != "File:cache/memo.go" {
		t.Errorf("the rename: %v", mv)
	}
	steps := readNodes(t, filepath.Join(dir, export.RelFile("STEP_IN_PROCESS")))
	if len(steps) == 0 || steps[0]["step"] == "" || steps[0]["line"] != "0" {
		t.Errorf("steps: %v", steps)
	}
}

// TestCSVFields checks the field encoding against encoding/csv, which
// reads RFC 4180 as neo4j-admin does.
func TestCSVFields(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"a, b", "a, b"},
		{`say "hi"`, `say "hi"`},
		{"two\nlines", "two\nlines"},
		{`""`, `""`},
		{"tab\there", "tab\there"},
		{"crlf\r\nend", "crlf\nend"}, // encoding/csv folds \r\n inside quotes
		{"ünï ✓", "ünï ✓"},
		{"latin-1 \xe9t\xe9", "latin-1 \uFFFDt\uFFFD"}, // the import reads UTF-8
	} {
		t.Run(fmt.Sprintf("%q", c.in), func(t *testing.T) {
			line := export.QuoteField(c.in) + ",1\n"
			rec, err := csv.NewReader(strings.NewReader(line)).Read()
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if len(rec) != 2 || rec[0] != c.want || rec[1] != "1" {
				t.Errorf("%q read back as %q", line, rec)
			}
		})
	}
}
