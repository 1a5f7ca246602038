package analysis

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// MaxSourceLines bounds the source a history answer carries per symbol.
const MaxSourceLines = 300

// ReadRevisionFiles reads files as of revisions ("<rev>:<path>" specs)
// from the repository at root with one `git cat-file --batch`. A spec git
// cannot find is left out of the map.
func ReadRevisionFiles(ctx context.Context, root string, specs []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(specs) == 0 {
		return out, nil
	}
	var in strings.Builder
	for _, s := range specs {
		if strings.ContainsAny(s, "\n\x00") {
			continue
		}
		in.WriteString(s)
		in.WriteByte('\n')
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git cat-file: %w", err)
	}
	r := bufio.NewReader(stdout)
	for _, spec := range specs {
		if strings.ContainsAny(spec, "\n\x00") {
			continue
		}
		header, err := r.ReadString('\n')
		if err != nil {
			break
		}
		fields := strings.Fields(header)
		if len(fields) == 0 {
			continue
		}
		if last := fields[len(fields)-1]; len(fields) != 3 || last == "missing" || last == "ambiguous" {
			continue // "<spec> missing" (the spec may hold spaces)
		}
		size, err := strconv.Atoi(fields[2])
		if err != nil {
			break
		}
		body := make([]byte, size+1) // the content and its newline
		if _, err := io.ReadFull(r, body); err != nil {
			break
		}
		if fields[1] == "blob" {
			out[spec] = body[:size]
		}
	}
	_, _ = io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// LinesOf returns lines from..to (1-based, inclusive) of src, at most
// MaxSourceLines of them, and whether it cut.
func LinesOf(src []byte, from, to int) (string, bool) {
	if from < 1 {
		from = 1
	}
	lines := strings.SplitAfter(string(src), "\n")
	if to > len(lines) {
		to = len(lines)
	}
	if from > to {
		return "", false
	}
	cut := false
	if to-from+1 > MaxSourceLines {
		to, cut = from+MaxSourceLines-1, true
	}
	return strings.Join(lines[from-1:to], ""), cut
}
