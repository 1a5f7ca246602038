package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/ingest"
)

// progress renders pipeline events on stderr: a live bar redrawn in place on
// a terminal, plain phase lines otherwise (logs, CI).
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	live     bool
	quiet    bool
	phase    string
	phaseAt  time.Time // when the phase began
	last     time.Time
	started  time.Time
	drawn    bool
	lastLine int
}

func newProgress(w io.Writer, quiet bool) *progress {
	return &progress{w: w, live: isTerminal(w), quiet: quiet, started: time.Now()}
}

var phaseLabels = map[string]string{
	"walk":    "Listing files",
	"parse":   "Parsing",
	"resolve": "Resolving imports, calls and types",
	"enrich":  "Finding communities and execution flows",
	"history": "Reading the git history",
	"store":   "Writing the index",

	"history-symbols": "Mapping commits onto symbols",
	"embed":           "Embedding symbols and commits",
	"embed-index":     "Linking the symbols' vectors",
}

// phaseUnits names what a counted phase counts (files when not listed).
var phaseUnits = map[string]string{"history": "commits", "history-symbols": "commits", "embed": "texts"}

// event is safe for concurrent use (parse workers report from goroutines).
func (p *progress) event(e ingest.Event) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	label := phaseLabels[e.Phase]
	if e.Phase != p.phase {
		if p.live && p.drawn {
			fmt.Fprintln(p.w)
		}
		p.phase = e.Phase
		p.phaseAt = time.Now()
		p.drawn = false
		if !p.live {
			if e.Total > 0 {
				unit := phaseUnits[e.Phase]
				if unit == "" {
					unit = "files"
				}
				fmt.Fprintf(p.w, "%s %d %s...\n", label, e.Total, unit)
			} else {
				fmt.Fprintf(p.w, "%s...\n", label)
			}
			return
		}
	}
	if !p.live {
		return
	}
	now := time.Now()
	if p.drawn && e.Total > 0 && e.Done < e.Total && now.Sub(p.last) < 80*time.Millisecond {
		return
	}
	p.last = now
	line := label + "..."
	if e.Total > 0 {
		const width = 30
		filled := min(e.Done, e.Total) * width / e.Total
		line = fmt.Sprintf("%-36s [%s%s] %d/%d", label, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), e.Done, e.Total)
		line += rateAndLeft(e, now.Sub(p.phaseAt))
	}
	pad := ""
	if n := p.lastLine - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.lastLine = len(line)
	p.drawn = true
}

// done ends the live line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live && p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// rateAndLeft is a counted phase's rate and the time it has left at that
// rate, once it has run long enough (a second) for the rate to mean
// something; the time taken when it is done.
func rateAndLeft(e ingest.Event, took time.Duration) string {
	if took < time.Second || e.Done == 0 {
		return ""
	}
	unit := phaseUnits[e.Phase]
	if unit == "" {
		unit = "files"
	}
	rate := float64(e.Done) / took.Seconds()
	if e.Done >= e.Total {
		return fmt.Sprintf("  %.0f %s/s, took %s", rate, unit, roundDuration(took))
	}
	left := time.Duration(float64(e.Total-e.Done) / rate * float64(time.Second))
	return fmt.Sprintf("  %.0f %s/s, %s left", rate, unit, roundDuration(left))
}

// roundDuration rounds to a second (a tenth under ten seconds).
func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
