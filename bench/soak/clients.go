package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// symbol is a function or method of the index, with the words of its
// name for query.
type symbol struct {
	id, name, file string
}

// sampleSymbols asks the index for the 200 functions and methods with
// the most callers.
func sampleSymbols(o options) ([]symbol, error) {
	q := "MATCH (f)<-[:CALLS]-(c) WHERE f:Function OR f:Method " +
		"RETURN f.id AS id, f.name AS name, f.filePath AS file, count(c) AS callers ORDER BY callers DESC, id LIMIT 200"
	cmd := exec.Command(o.bin, "cypher", "--repo", o.repo, "--json", q)
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+o.home)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("gitnexus cypher: %w", err)
	}
	var res struct {
		Rows []struct{ ID, Name, File string } `json:"rows"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("gitnexus cypher: %w", err)
	}
	var syms []symbol
	for _, r := range res.Rows {
		syms = append(syms, symbol{r.ID, r.Name, r.File})
	}
	if len(syms) == 0 {
		return nil, fmt.Errorf("the index of %s has no function or method with callers", o.repoPath)
	}
	return syms, nil
}

// words splits an identifier into its lower-case words.
func words(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		if r == '_' {
			r = ' '
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// wellFormed sends context, impact, query and cypher requests in turn
// until ctx ends.
func wellFormed(ctx context.Context, base, repo string, syms []symbol, client int, rep *report) {
	hc := &http.Client{Timeout: time.Minute}
	for i := client; ctx.Err() == nil; i++ {
		s := syms[(i*7919)%len(syms)]
		var kind string
		var body map[string]any
		switch i % 4 {
		case 0:
			kind, body = "context", map[string]any{"uid": s.id}
		case 1:
			kind, body = "impact", map[string]any{"target_uid": s.id, "direction": "upstream", "maxDepth": 3}
		case 2:
			kind, body = "query", map[string]any{"query": words(s.name), "limit": 10}
		default:
			kind, body = "cypher", map[string]any{"query": "MATCH (f {id: $id})<-[:CALLS]-(c) RETURN c.name, c.filePath LIMIT 20",
				"params": map[string]any{"id": s.id}}
		}
		body["repo"] = repo
		data, _ := json.Marshal(body)
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/tools/"+kind, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := hc.Do(req)
		if ctx.Err() != nil {
			return // cut by the end of the run
		}
		if err != nil {
			rep.request(kind, time.Since(start), err.Error())
			continue
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		msg := ""
		if resp.StatusCode != http.StatusOK {
			msg = fmt.Sprintf("%d %.300s", resp.StatusCode, answer)
		}
		rep.request(kind, time.Since(start), msg)
	}
}

// reindexer appends a comment to one of the sampled symbols' files and
// runs analyze, every o.reindex, until ctx ends.
func reindexer(ctx context.Context, o options, syms []symbol, rep *report) {
	file := filepath.Join(o.repoPath, syms[0].file)
	comment := "//"
	switch filepath.Ext(file) {
	case ".py", ".rb", ".sh":
		comment = "#"
	}
	t := time.NewTicker(o.reindex)
	defer t.Stop()
	for n := 1; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			rep.reindex(0, err.Error())
			continue
		}
		fmt.Fprintf(f, "\n%s soak edit %d\n", comment, n)
		f.Close()
		start := time.Now()
		out, err := gitnexus(o, "analyze", "-q", o.repoPath)
		msg := ""
		if err != nil {
			msg = fmt.Sprintf("%v: %.300s", err, out)
		}
		rep.reindex(time.Since(start), msg)
	}
}
