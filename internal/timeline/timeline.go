// Package timeline records when the steps of a run happen, for finding
// what a re-index waits on: with GITNEXUS_TIMELINE=1 in the environment,
// Mark notes the time since the process started and Dump prints the notes
// to stderr, in the order they were made (from every goroutine). Otherwise
// both do nothing but test a boolean.
package timeline

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Env is the environment variable that turns the timeline on.
const Env = "GITNEXUS_TIMELINE"

var (
	start = time.Now()
	on    = os.Getenv(Env) == "1"
	mu    sync.Mutex
	notes []string
)

// Mark notes that a step happened now.
func Mark(format string, args ...any) {
	if !on {
		return
	}
	at := time.Since(start)
	note := fmt.Sprintf("%8.1f ms  %s", float64(at.Microseconds())/1000, fmt.Sprintf(format, args...))
	mu.Lock()
	notes = append(notes, note)
	mu.Unlock()
}

// Dump prints the notes to stderr and forgets them.
func Dump() { dump(os.Stderr) }

func dump(w io.Writer) {
	if !on {
		return
	}
	Mark("end")
	mu.Lock()
	defer mu.Unlock()
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	notes = nil
}
