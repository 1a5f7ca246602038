package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
)

// answerRow is one line of a responses file, as check reads it.
type answerRow struct {
	Tool       string `json:"tool"`
	Phase      string `json:"phase"`
	Seq        int    `json:"seq"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Text       string `json:"text"`
	Structured any    `json:"structured"`
}

func checkCmd(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	samplePath := fs.String("sample", "", "the sample both runs used")
	rows := fs.Int("rows", 20, "symbols listed one by one (the totals cover all)")
	labelA := fs.String("a", "ours", "name of the first server")
	labelB := fs.String("b", "peer", "name of the second server")
	fs.Parse(args)
	if *samplePath == "" || fs.NArg() != 2 {
		return fmt.Errorf("check needs -sample and two responses files")
	}
	sample, err := readSample(*samplePath)
	if err != nil {
		return err
	}
	a, err := readAnswers(fs.Arg(0))
	if err != nil {
		return err
	}
	b, err := readAnswers(fs.Arg(1))
	if err != nil {
		return err
	}
	writeCheck(os.Stdout, sample, a, b, *labelA, *labelB, *rows)
	return nil
}

// readAnswers indexes a responses file's measured answers by tool and
// sample position.
func readAnswers(p string) (map[string]map[int]answerRow, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[int]answerRow{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var r answerRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if r.Phase != "measured" {
			continue
		}
		if out[r.Tool] == nil {
			out[r.Tool] = map[int]answerRow{}
		}
		out[r.Tool][r.Seq] = r
	}
	return out, sc.Err()
}

// facts is what check reads off one server's answers about one symbol.
type facts struct {
	where   string // file:line of the definition context reports, "" if none
	callers string // direct callers context lists
	impact  string // impact's counts by depth, d1/d2/d3
}

func readFacts(ans map[string]map[int]answerRow, seq int) facts {
	var f facts
	if r, ok := ans["context"][seq]; ok {
		doc := answerObject(r.Structured, r.Text)
		if sym, ok := doc["symbol"].(map[string]any); ok {
			file, _ := sym["filePath"].(string)
			if line, ok := sym["startLine"].(float64); ok && file != "" {
				f.where = fmt.Sprintf("%s:%d", file, int(line))
			}
		}
		if in, ok := doc["incoming"].(map[string]any); ok {
			f.callers = count(in["calls"])
		} else if doc != nil {
			f.callers = "0"
		}
	}
	if r, ok := ans["impact"][seq]; ok {
		doc := answerObject(r.Structured, r.Text)
		if c, ok := doc["byDepthCounts"].(map[string]any); ok {
			f.impact = fmt.Sprintf("%s/%s/%s", count(c["1"]), count(c["2"]), count(c["3"]))
		}
	}
	return f
}

// count reads a count: a number, a list's length, or a group's total.
func count(v any) string {
	switch x := v.(type) {
	case nil:
		return "0"
	case float64:
		return strconv.Itoa(int(x))
	case []any:
		return strconv.Itoa(len(x))
	case map[string]any:
		if t, ok := x["total"].(float64); ok {
			return strconv.Itoa(int(t))
		}
	}
	return "?"
}

// writeCheck compares, symbol by symbol, the definition each server's
// context reports (with the one in the sample), the direct callers, and the
// impact counts.
func writeCheck(w io.Writer, s *Sample, a, b map[string]map[int]answerRow, la, lb string, rows int) {
	same, differ, missingA, missingB, sameCallers, sameImpact, both := 0, 0, 0, 0, 0, 0, 0
	var detail [][]string
	var mismatches [][]string
	for i, sym := range s.Symbols {
		fa, fb := readFacts(a, i), readFacts(b, i)
		want := fmt.Sprintf("%s:%d", sym.File, sym.Line)
		switch {
		case fa.where == "":
			missingA++
		case fb.where == "":
			missingB++
		case fa.where == fb.where:
			same++
		default:
			differ++
		}
		if fa.where != "" && fb.where != "" {
			both++
			if fa.callers == fb.callers {
				sameCallers++
			}
			if fa.impact == fb.impact {
				sameImpact++
			}
		}
		row := []string{sym.Name, want, fa.where, fb.where, mark(fa.where != "" && fa.where == fb.where), fa.callers, fb.callers, fa.impact, fb.impact}
		if i < rows {
			detail = append(detail, row)
		}
		if i >= rows && (fa.where == "" || fa.where != fb.where) {
			mismatches = append(mismatches, row)
		}
	}
	fmt.Fprintf(w, "Definition site from context, %d symbols: same file:line in both %d; different %d; no location from %s %d; no location from %s %d.\n",
		len(s.Symbols), same, differ, la, missingA, lb, missingB)
	fmt.Fprintf(w, "Where both answered: same number of direct callers %d of %d; same impact counts by depth (d1/d2/d3) %d of %d.\n\n",
		sameCallers, both, sameImpact, both)
	fmt.Fprintf(w, "| symbol | sample | %[1]s context | %[2]s context | same | %[1]s callers | %[2]s callers | %[1]s impact d1/d2/d3 | %[2]s impact d1/d2/d3 |\n", la, lb)
	fmt.Fprintln(w, "|---|---|---|---|---|---:|---:|---|---|")
	for _, r := range append(detail, mismatches...) {
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n", r[0], r[1], dash(r[2]), dash(r[3]), r[4], dash(r[5]), dash(r[6]), dash(r[7]), dash(r[8]))
	}
	if len(mismatches) > 0 {
		fmt.Fprintf(w, "\n(The first %d rows are the first symbols of the sample; the rest are every other symbol whose locations differ or are missing.)\n", len(detail))
	}
}

func mark(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
