package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Targets the report checks: ours answers context and impact within
// targetP99Millis at the 99th percentile, and targetSpeedup times faster
// than the peer.
const (
	targetP99Millis = 5.0
	targetSpeedup   = 20.0
)

func reportCmd(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	fs.Parse(args)
	if fs.NArg() != 2 {
		return fmt.Errorf("report takes two summaries: ours.json peer.json")
	}
	ours, err := readSummary(fs.Arg(0))
	if err != nil {
		return err
	}
	peer, err := readSummary(fs.Arg(1))
	if err != nil {
		return err
	}
	writeReport(os.Stdout, ours, peer)
	return nil
}

func readSummary(p string) (*Summary, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("summary %s: %w", p, err)
	}
	return &s, nil
}

func toolOf(s *Summary, name string) *ToolSummary {
	for i := range s.Tools {
		if s.Tools[i].Tool == name {
			return &s.Tools[i]
		}
	}
	return &ToolSummary{Tool: name}
}

// writeReport prints the side-by-side tables: the main one (p50 and p99 and
// their ratios), the full distributions, the cold start, and the targets.
func writeReport(w io.Writer, a, b *Summary) {
	fmt.Fprintf(w, "Warm calls, end to end through MCP over stdio (client send to result decoded), %d symbols, one call at a time. "+
		"Ratio = %s / %s.\n\n", a.Symbols, b.Label, a.Label)
	fmt.Fprintf(w, "| tool | %[1]s p50 | %[2]s p50 | p50 ratio | %[1]s p99 | %[2]s p99 | p99 ratio | %[1]s errors | %[2]s errors |\n", a.Label, b.Label)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range logicalTools {
		x, y := toolOf(a, t), toolOf(b, t)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t,
			ms(x.Latency.P50), ms(y.Latency.P50), ratio(y.Latency.P50, x.Latency.P50),
			ms(x.Latency.P99), ms(y.Latency.P99), ratio(y.Latency.P99, x.Latency.P99),
			errs(x), errs(y))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Errors: tool errors (isError answers) / protocol errors (no answer). All latencies in milliseconds.")
	fmt.Fprintln(w)
	for _, s := range []*Summary{a, b} {
		for _, t := range logicalTools {
			x := toolOf(s, t)
			if n := x.Answers["empty"]; n > 0 {
				fmt.Fprintf(w, "- **%s %s: %d of %d answers found nothing**; their latency is that of an empty answer.\n", s.Label, t, n, x.Latency.N)
			}
			if n := x.Answers["ambiguous"]; n > 0 {
				fmt.Fprintf(w, "- **%s %s: %d of %d answers are ambiguous** (a list of candidates, not the symbol).\n", s.Label, t, n, x.Latency.N)
			}
			if x.ToolErrors+x.ProtocolErrors > 0 {
				fmt.Fprintf(w, "- **%s %s: %d tool errors, %d protocol errors**, e.g. %s\n", s.Label, t, x.ToolErrors, x.ProtocolErrors,
					strings.Join(x.FirstErrors, "; "))
			}
		}
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "| server | tool | n | p50 | p90 | p99 | max | mean | ok | tool errors | protocol errors | answer status | mean answer bytes |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
	for _, s := range []*Summary{a, b} {
		for _, t := range logicalTools {
			x := toolOf(s, t)
			l := x.Latency
			fmt.Fprintf(w, "| %s | %s (`%s`) | %d | %s | %s | %s | %s | %s | %d | %d | %d | %s | %.0f |\n", s.Label, t, x.ServerTool,
				l.N, ms(l.P50), ms(l.P90), ms(l.P99), ms(l.Max), ms(l.Mean), x.OK, x.ToolErrors, x.ProtocolErrors,
				answers(x.Answers), x.MeanBytes)
		}
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Where the time goes: the same calls timed until the answer's last byte had arrived from the server "+
		"(server work, encoding and the pipe), and the rest, the client (the Go MCP SDK) decoding the answer.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| server | tool | arrived p50 | arrived p99 | decoding p50 (end to end minus arrived) |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|")
	for _, s := range []*Summary{a, b} {
		for _, t := range logicalTools {
			x := toolOf(s, t)
			if x.Arrival.N == 0 || x.Arrival.P50 == 0 {
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", s.Label, t, ms(x.Arrival.P50), ms(x.Arrival.P99), ms(x.Latency.P50-x.Arrival.P50))
		}
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Cold start: process start to initialized session, then the first call of each tool (the warm-up, not in the table above; "+
		"the first call is the one that opens the index).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| server | connect | first context | first impact | first query |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, s := range []*Summary{a, b} {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", s.Label, ms(s.ConnectMillis),
			warm(toolOf(s, "context")), warm(toolOf(s, "impact")), warm(toolOf(s, "query")))
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "Targets for %s: context and impact p99 <= %.0f ms end to end, and >= %.0fx faster than %s (p50 and p99).\n\n",
		a.Label, targetP99Millis, targetSpeedup, b.Label)
	for _, t := range []string{"context", "impact"} {
		x, y := toolOf(a, t), toolOf(b, t)
		fmt.Fprintf(w, "- %s: p99 %s ms -> %s; speed-up p50 %s, p99 %s -> %s\n", t, ms(x.Latency.P99),
			verdict(x.Latency.N > 0 && x.Latency.P99 <= targetP99Millis),
			ratio(y.Latency.P50, x.Latency.P50), ratio(y.Latency.P99, x.Latency.P99),
			verdict(x.Latency.N > 0 && y.Latency.P50 >= targetSpeedup*x.Latency.P50 && y.Latency.P99 >= targetSpeedup*x.Latency.P99))
	}
}

func ms(v float64) string {
	switch {
	case v == 0:
		return "-"
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 1000:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

func ratio(num, den float64) string {
	if num == 0 || den == 0 {
		return "-"
	}
	r := num / den
	if r < 10 {
		return fmt.Sprintf("%.1fx", r)
	}
	return fmt.Sprintf("%.0fx", r)
}

func errs(t *ToolSummary) string { return fmt.Sprintf("%d / %d", t.ToolErrors, t.ProtocolErrors) }

func warm(t *ToolSummary) string {
	if t.WarmupStatus != statusOK && t.WarmupStatus != "" {
		return ms(t.WarmupMillis) + " (" + t.WarmupStatus + ")"
	}
	return ms(t.WarmupMillis)
}

func answers(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func verdict(ok bool) string {
	if ok {
		return "**met**"
	}
	return "**missed**"
}
