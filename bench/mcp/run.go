package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call outcomes. A tool error is an answer with isError set (the server ran
// the tool and reports a failure); a protocol error is no answer at all
// (JSON-RPC error, broken pipe, timeout).
const (
	statusOK            = "ok"
	statusToolError     = "tool_error"
	statusProtocolError = "protocol_error"
)

// Record is one timed call.
type Record struct {
	Tool   string  `json:"tool"`
	Phase  string  `json:"phase"` // warmup or measured
	Seq    int     `json:"seq"`   // index in the sample (-1 for the warm-up)
	Name   string  `json:"name"`
	Millis float64 `json:"ms"`
	// ArriveMillis is the time until the answer's last byte arrived
	// (before the client decoded it); 0 when unknown.
	ArriveMillis float64 `json:"arriveMs,omitempty"`
	Status       string  `json:"status"`
	Answer       string  `json:"answer,omitempty"` // the answer's own status field (found, ambiguous, ...), or empty for a search that found nothing
	Bytes        int     `json:"bytes"`            // text content returned
	Error        string  `json:"error,omitempty"`
	Text         string  `json:"text,omitempty"`
	Payload      any     `json:"structured,omitempty"`
	args         map[string]any
}

// ToolSummary is one tool's line of the summary.
type ToolSummary struct {
	Tool         string  `json:"tool"`
	ServerTool   string  `json:"serverTool"`
	WarmupMillis float64 `json:"warmupMs"`
	WarmupStatus string  `json:"warmupStatus"`
	Latency      Latency `json:"latency"` // calls that returned a result (ok or tool error)
	// Arrival is the same calls timed until the answer had arrived, before
	// the client decoded it.
	Arrival        Latency        `json:"arrival"`
	OK             int            `json:"ok"`
	ToolErrors     int            `json:"toolErrors"`
	ProtocolErrors int            `json:"protocolErrors"`
	Answers        map[string]int `json:"answers,omitempty"` // count by the answer's status field
	MeanBytes      float64        `json:"meanBytes"`
	FirstErrors    []string       `json:"firstErrors,omitempty"`
}

// Summary is what one run of one server measured.
type Summary struct {
	Label           string        `json:"label"`
	Command         []string      `json:"command"`
	Dir             string        `json:"dir,omitempty"`
	Server          string        `json:"server"`
	ServerVersion   string        `json:"serverVersion"`
	ProtocolVersion string        `json:"protocolVersion"`
	Sample          string        `json:"sample"`
	Symbols         int           `json:"symbols"`
	Started         time.Time     `json:"started"`
	ConnectMillis   float64       `json:"connectMs"` // process start to initialized session
	TotalSeconds    float64       `json:"totalSeconds"`
	Tools           []ToolSummary `json:"tools"`
}

func runCmd(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	server := fs.String("server", "", `server command line, split on spaces (e.g. "bin/gitnexus mcp"); the environment is passed through`)
	profile := fs.String("profile", "", "built-in tool map: ours or peer")
	toolMap := fs.String("tool-map", "", "tool map file (JSON), instead of -profile")
	samplePath := fs.String("sample", "", "sample file written by `mcpbench sample`")
	out := fs.String("out", "", "output prefix: writes PREFIX.tsv, PREFIX.json, PREFIX.responses.jsonl, PREFIX.stderr")
	label := fs.String("label", "", "name of the server in the outputs (default: the base name of -out)")
	repo := fs.String("repo", "", "repo argument added to every call (default: none, the server's only repository)")
	dir := fs.String("dir", "", "working directory of the server (default: this one)")
	limit := fs.Int("limit", 0, "measure only the first N symbols of the sample (0: all)")
	timeout := fs.Duration("timeout", 2*time.Minute, "longest wait for one call")
	fs.Parse(args)
	if *server == "" || *samplePath == "" || *out == "" || fs.NArg() > 0 {
		return fmt.Errorf("run needs -server, -sample and -out (and no other arguments)")
	}
	tm, err := loadToolMap(*profile, *toolMap)
	if err != nil {
		return err
	}
	sample, err := readSample(*samplePath)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(sample.Symbols) {
		sample.Symbols = sample.Symbols[:*limit]
	}
	if *label == "" {
		*label = filepath.Base(*out)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	answers, err := newAnswerLog(*out + ".responses.jsonl")
	if err != nil {
		return err
	}
	sum, recs, err := measure(context.Background(), strings.Fields(*server), *dir, *out+".stderr", tm, sample, *repo, *timeout, answers)
	if err = errors.Join(err, answers.Close()); err != nil {
		return err
	}
	sum.Label, sum.Sample = *label, *samplePath
	if err := writeOutputs(*out, sum, recs); err != nil {
		return err
	}
	printSummary(os.Stderr, sum)
	return nil
}

func readSample(p string) (*Sample, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read the sample: %w", err)
	}
	var s Sample
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("sample %s: %w", p, err)
	}
	if len(s.Symbols) == 0 {
		return nil, fmt.Errorf("sample %s has no symbols", p)
	}
	return &s, nil
}

// measure starts the server, initializes a session, makes the warm-up call
// of each tool, then every measured call, one at a time.
//
// Each answer goes to answers as soon as it is timed and only its summary is
// kept: a client holding every decoded answer would grow a heap that its
// garbage collector walks while it decodes the next one, and time that.
func measure(ctx context.Context, argv []string, dir, stderrPath string, tm ToolMap, sample *Sample, repo string,
	timeout time.Duration, answers *answerLog) (*Summary, []Record, error) {
	stderr, err := os.Create(stderrPath)
	if err != nil {
		return nil, nil, err
	}
	defer stderr.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil)
	sum := &Summary{Command: argv, Dir: dir, Symbols: len(sample.Symbols), Started: time.Now().UTC()}

	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	transport := newArrivalTransport(cmd)
	session, err := client.Connect(cctx, transport, nil)
	cancel()
	if err != nil {
		return nil, nil, fmt.Errorf("start and initialize %q: %w (its stderr: %s)", strings.Join(argv, " "), err, stderrPath)
	}
	sum.ConnectMillis = millis(time.Since(start))
	defer session.Close()
	if init := session.InitializeResult(); init != nil {
		sum.ProtocolVersion = init.ProtocolVersion
		if init.ServerInfo != nil {
			sum.Server, sum.ServerVersion = init.ServerInfo.Name, init.ServerInfo.Version
		}
	}
	if err := checkTools(ctx, session, tm); err != nil {
		return nil, nil, err
	}

	var recs []Record
	var logErr error
	call := func(tool string, phase string, seq int, s Symbol) {
		c := tm[tool]
		args := c.arguments(s, repo)
		rec := Record{Tool: tool, Phase: phase, Seq: seq, Name: s.Name, args: args}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		t0 := time.Now()
		res, err := session.CallTool(cctx, &mcp.CallToolParams{Name: c.Tool, Arguments: args})
		rec.Millis = millis(time.Since(t0))
		if at := transport.lastArrival(); at.After(t0) {
			rec.ArriveMillis = millis(at.Sub(t0))
		}
		cancel()
		fillOutcome(&rec, res, err)
		if logErr == nil {
			logErr = answers.add(rec)
		}
		rec.Text, rec.Payload = "", nil
		recs = append(recs, rec)
	}
	for _, t := range logicalTools {
		call(t, "warmup", -1, sample.Warmup)
	}
	for i, s := range sample.Symbols {
		for _, t := range logicalTools {
			call(t, "measured", i, s)
		}
	}
	sum.TotalSeconds = time.Since(start).Seconds()
	sum.Tools = summariseTools(tm, recs)
	return sum, recs, logErr
}

// checkTools fails early when the server lacks a tool the map names.
func checkTools(ctx context.Context, session *mcp.ClientSession, tm ToolMap) error {
	have := map[string]bool{}
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list the server's tools: %w", err)
		}
		have[t.Name] = true
	}
	for _, lt := range logicalTools {
		if !have[tm[lt].Tool] {
			return fmt.Errorf("the server has no tool %q (for %s)", tm[lt].Tool, lt)
		}
	}
	return nil
}

func fillOutcome(rec *Record, res *mcp.CallToolResult, err error) {
	if err != nil {
		rec.Status, rec.Error = statusProtocolError, err.Error()
		return
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	rec.Text, rec.Bytes, rec.Payload = text.String(), text.Len(), res.StructuredContent
	rec.Status = statusOK
	if res.IsError {
		rec.Status = statusToolError
		rec.Error = firstLine(rec.Text)
	}
	doc := answerObject(res.StructuredContent, rec.Text)
	if s, ok := doc["status"].(string); ok {
		rec.Answer = s
	}
	if rec.Tool == "query" && rec.Answer == "" && doc != nil && searchHits(doc) == 0 {
		rec.Answer = "empty"
	}
	// An answer that reports an error in its body without setting isError
	// is an error all the same.
	if e, ok := doc["error"]; ok && e != nil {
		rec.Status, rec.Answer = statusToolError, "error"
		rec.Error = firstLine(fmt.Sprint(e))
	}
}

// searchHits counts what a search answer found: its total_hits when it
// reports one, else the items of its top-level lists (groups, definitions,
// processes, ...).
func searchHits(doc map[string]any) int {
	if t, ok := doc["total_hits"].(float64); ok {
		return int(t)
	}
	n := 0
	for _, v := range doc {
		if l, ok := v.([]any); ok {
			n += len(l)
		}
	}
	return n
}

// answerObject is an answer as a JSON object: its structured content or,
// for servers that answer in JSON text (possibly followed by prose), the
// first JSON value of the text. Nil when it is neither.
func answerObject(structured any, text string) map[string]any {
	if m, ok := structured.(map[string]any); ok {
		return m
	}
	var m map[string]any
	if json.NewDecoder(strings.NewReader(text)).Decode(&m) == nil {
		return m
	}
	return nil
}

func summariseTools(tm ToolMap, recs []Record) []ToolSummary {
	var out []ToolSummary
	for _, t := range logicalTools {
		ts := ToolSummary{Tool: t, ServerTool: tm[t].Tool, Answers: map[string]int{}}
		var ms, arrive []float64
		bytes := 0
		for _, r := range recs {
			if r.Tool != t {
				continue
			}
			if r.Phase == "warmup" {
				ts.WarmupMillis, ts.WarmupStatus = r.Millis, r.Status
				continue
			}
			switch r.Status {
			case statusOK:
				ts.OK++
			case statusToolError:
				ts.ToolErrors++
			case statusProtocolError:
				ts.ProtocolErrors++
			}
			if r.Status != statusProtocolError {
				ms = append(ms, r.Millis)
				arrive = append(arrive, r.ArriveMillis)
				bytes += r.Bytes
			}
			if r.Answer != "" {
				ts.Answers[r.Answer]++
			}
			if r.Error != "" && len(ts.FirstErrors) < 5 {
				ts.FirstErrors = append(ts.FirstErrors, fmt.Sprintf("%s: %s", r.Name, r.Error))
			}
		}
		ts.Latency = summarise(ms)
		ts.Arrival = summarise(arrive)
		if len(ms) > 0 {
			ts.MeanBytes = float64(bytes) / float64(len(ms))
		}
		out = append(out, ts)
	}
	return out
}

// writeOutputs writes the rows (TSV) and the summary (JSON); the answers
// were written as they came (answerLog).
func writeOutputs(prefix string, sum *Summary, recs []Record) error {
	var tsv strings.Builder
	tsv.WriteString("server\ttool\tphase\tseq\tname\tms\tarrive_ms\tstatus\tanswer\tbytes\n")
	for _, r := range recs {
		fmt.Fprintf(&tsv, "%s\t%s\t%s\t%d\t%s\t%.3f\t%.3f\t%s\t%s\t%d\n", sum.Label, r.Tool, r.Phase, r.Seq, r.Name, r.Millis, r.ArriveMillis, r.Status, r.Answer, r.Bytes)
	}
	if err := os.WriteFile(prefix+".tsv", []byte(tsv.String()), 0o644); err != nil {
		return err
	}
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(prefix+".json", append(data, '\n'), 0o644); err != nil {
		return err
	}
	return nil
}

// answerLog writes every answer, with its arguments, as one JSON line.
type answerLog struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
}

func newAnswerLog(path string) (*answerLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriter(f)
	return &answerLog{f: f, w: w, enc: json.NewEncoder(w)}, nil
}

func (l *answerLog) add(r Record) error {
	line := struct {
		Record
		Args map[string]any `json:"args"`
	}{r, r.args}
	return l.enc.Encode(line)
}

func (l *answerLog) Close() error { return errors.Join(l.w.Flush(), l.f.Close()) }

func printSummary(w *os.File, s *Summary) {
	fmt.Fprintf(w, "%s (%s %s, protocol %s): connect %.1f ms, %d symbols, %.1f s in all\n",
		s.Label, s.Server, s.ServerVersion, s.ProtocolVersion, s.ConnectMillis, s.Symbols, s.TotalSeconds)
	fmt.Fprintf(w, "  %-8s %10s %9s %9s %9s %9s %9s %5s %5s %5s  answers\n", "tool", "warmup_ms", "p50", "p90", "p99", "max", "mean", "ok", "toolE", "protE")
	for _, t := range s.Tools {
		l := t.Latency
		fmt.Fprintf(w, "  %-8s %10.1f %9.3f %9.3f %9.3f %9.3f %9.3f %5d %5d %5d  %v\n", t.Tool, t.WarmupMillis,
			l.P50, l.P90, l.P99, l.Max, l.Mean, t.OK, t.ToolErrors, t.ProtocolErrors, t.Answers)
		for _, e := range t.FirstErrors {
			fmt.Fprintf(w, "      error: %s\n", e)
		}
	}
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
