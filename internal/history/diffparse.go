package history

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// The lines a commit changed come from `git diff-tree --stdin -p -U0
// --full-index`: one header line per commit (its hash), then per file a
// "diff --git" section whose "index <old>..<new>" line names both blobs
// and whose "@@ -a,b +c,d @@" headers give the deleted and added line
// ranges. With -U0 a hunk holds exactly b deleted and d added lines, so
// the parser counts them off instead of looking at their text: a content
// line can never be mistaken for a header.

// diffArgs are the options of the diff pass.
var diffArgs = []string{"diff-tree", "--stdin", "-r", "--root", "--always", "-p", "-U0", "--full-index", "-M",
	"--no-color", "--no-ext-diff", "--no-textconv"}

// hunk is one "@@ -oldStart,oldCount +newStart,newCount @@".
type hunk struct{ oldStart, oldCount, newStart, newCount int32 }

// fileDiff is one file of a commit's diff.
type fileDiff struct {
	oldBlob, newBlob string // from the index line; "" for no file on that side
	indexed          bool   // the section had an index line
	binary           bool
	hunks            []hunk
	additions        int
	deletions        int
}

// commitDiff is one commit of the diff pass.
type commitDiff struct {
	hash  string
	files []fileDiff
}

// parseDiff reads the output of the diff pass and calls emit for each
// commit, in order. Output cut short ends the stream without an error.
func parseDiff(r *bufio.Reader, emit func(*commitDiff) error) error {
	var cur *commitDiff
	var file *fileDiff
	flush := func() error {
		if cur == nil {
			return nil
		}
		c := cur
		cur, file = nil, nil
		return emit(c)
	}
	for {
		line, err := readLine(r)
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			return err
		}
		switch {
		case len(line) >= 40 && isHash(string(firstWord(line))):
			if err := flush(); err != nil {
				return err
			}
			cur = &commitDiff{hash: string(firstWord(line))}
		case cur == nil:
			return fmt.Errorf("git diff-tree: output before any commit: %q", truncate(line))
		case bytes.HasPrefix(line, []byte("diff --git ")):
			cur.files = append(cur.files, fileDiff{})
			file = &cur.files[len(cur.files)-1]
		case file == nil:
			return fmt.Errorf("git diff-tree: commit %s: %q outside a file", cur.hash, truncate(line))
		case bytes.HasPrefix(line, []byte("index ")):
			old, new, ok := parseIndexLine(line)
			if !ok {
				return fmt.Errorf("git diff-tree: commit %s: bad index line %q", cur.hash, truncate(line))
			}
			file.oldBlob, file.newBlob, file.indexed = old, new, true
		case bytes.HasPrefix(line, []byte("Binary files ")) || bytes.Equal(line, []byte("GIT binary patch")):
			file.binary = true
		case bytes.HasPrefix(line, []byte("@@ -")):
			h, ok := parseHunkHeader(line)
			if !ok {
				return fmt.Errorf("git diff-tree: commit %s: bad hunk header %q", cur.hash, truncate(line))
			}
			file.hunks = append(file.hunks, h)
			file.deletions += int(h.oldCount)
			file.additions += int(h.newCount)
			complete, err := skipHunkLines(r, int(h.oldCount)+int(h.newCount))
			if err != nil {
				return err
			}
			if !complete {
				return flush()
			}
		default:
			// mode, rename, similarity and ---/+++ lines: the raw entries of
			// the log pass already say all of it.
		}
	}
}

// maxLine bounds what readLine keeps of one line; the rest is skipped.
const maxLine = 4096

// readLine returns the next line without its newline, at most maxLine
// bytes of it. The slice is valid until the next read.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	switch err {
	case nil:
		return line[:len(line)-1], nil
	case bufio.ErrBufferFull:
		kept := append([]byte(nil), line[:min(len(line), maxLine)]...)
		for err == bufio.ErrBufferFull {
			_, err = r.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		return kept, nil
	case io.EOF:
		if len(line) == 0 {
			return nil, io.EOF
		}
		return line, nil
	}
	return nil, err
}

// skipHunkLines skips a hunk's n content lines and any "\ No newline"
// markers among them; complete is false when the output ended first.
func skipHunkLines(r *bufio.Reader, n int) (bool, error) {
	for n > 0 {
		line, err := readLine(r)
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if len(line) > 0 && line[0] == '\\' {
			continue
		}
		n--
	}
	// A marker may follow the last line.
	if b, err := r.Peek(1); err == nil && b[0] == '\\' {
		if _, err := readLine(r); err != nil && err != io.EOF {
			return false, err
		}
	}
	return true, nil
}

func firstWord(line []byte) []byte {
	if i := bytes.IndexByte(line, ' '); i >= 0 {
		return line[:i]
	}
	return line
}

// parseIndexLine reads "index <old>..<new>[ <mode>]".
func parseIndexLine(line []byte) (string, string, bool) {
	rest := firstWord(line[len("index "):])
	old, new, ok := bytes.Cut(rest, []byte(".."))
	if !ok || !isHash(string(old)) || !isHash(string(new)) {
		return "", "", false
	}
	return blobOrEmpty(string(old)), blobOrEmpty(string(new)), true
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@...".
func parseHunkHeader(line []byte) (hunk, bool) {
	rest := line[len("@@ -"):]
	oldPart, rest, ok := bytes.Cut(rest, []byte(" +"))
	if !ok {
		return hunk{}, false
	}
	newPart, _, ok := bytes.Cut(rest, []byte(" @@"))
	if !ok {
		return hunk{}, false
	}
	os, oc, ok1 := parseRange(oldPart)
	ns, nc, ok2 := parseRange(newPart)
	if !ok1 || !ok2 {
		return hunk{}, false
	}
	return hunk{oldStart: os, oldCount: oc, newStart: ns, newCount: nc}, true
}

// parseRange reads "start[,count]"; the count defaults to 1.
func parseRange(b []byte) (int32, int32, bool) {
	s, c, hasCount := bytes.Cut(b, []byte(","))
	start, err := strconv.ParseInt(string(s), 10, 32)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	count := int64(1)
	if hasCount {
		count, err = strconv.ParseInt(string(c), 10, 32)
		if err != nil || count < 0 || count > 1<<28 {
			return 0, 0, false
		}
	}
	return int32(start), int32(count), true
}

func truncate(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}
