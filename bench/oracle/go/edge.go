package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// Node names one definition: the file, the line of its name identifier
// and its simple name. A File node has line 0 and an empty name.
type Node struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Name string `json:"name"`
}

// Site is where a call expression starts.
type Site struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Edge kinds.
const (
	kindStatic   = "static"
	kindDispatch = "dispatch"
)

// Edge is one line of the oracle's output.
type Edge struct {
	Caller Node   `json:"caller"`
	Callee Node   `json:"callee"`
	Kind   string `json:"kind"`
	Site   Site   `json:"site"`
}

// edgeSet collects edges as their encoded lines, which deduplicates them
// and gives a deterministic order once sorted.
type edgeSet map[string]struct{}

func (s edgeSet) add(e Edge) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode edge: %w", err)
	}
	s[string(b)] = struct{}{}
	return nil
}

// write emits the edges one per line, sorted.
func (s edgeSet) write(w io.Writer) error {
	lines := make([]string, 0, len(s))
	for l := range s {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		if _, err := bw.WriteString(l + "\n"); err != nil {
			return fmt.Errorf("write edges: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write edges: %w", err)
	}
	return nil
}
