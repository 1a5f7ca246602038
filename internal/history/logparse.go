package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The commits and the files each changed come from one `git log` with a
// machine-readable format and `--raw -z`:
//
//	\x1e <hash> \0 <parents> \0 <author name> \0 <author email> \0
//	<author date, raw> \0 <committer date, raw> \0 <subject> \0 <message> \0
//
// then, for each file, a raw entry
//
//	:<old mode> <new mode> <old blob> <new blob> <status>[<score>] \0 <path> \0 [<new path> \0]
//
// Every field ends with a NUL, which a message cannot hold, so a record
// separator inside a message is just text; entries start with ':' and a
// commit with \x1e. The parser reads structure, never scans for markers.

// logFormat is the --format of the log pass; parseLog reads its output.
const logFormat = "--format=%x1e%H%x00%P%x00%an%x00%ae%x00%ad%x00%cd%x00%s%x00%B"

// logArgs are the options of the log pass (after the subcommand).
func logArgs(allBranches, renames bool) []string {
	args := []string{"log", "--no-walk=unsorted", "--stdin", logFormat, "--date=raw", "--encoding=UTF-8",
		"-z", "--raw", "--no-abbrev", "--no-color", "--no-ext-diff", "--no-textconv"}
	if renames {
		args = append(args, "-M")
	} else {
		args = append(args, "--no-renames")
	}
	if allBranches {
		// Every commit of every branch is read, so a merge adds nothing of
		// its own: no diff.
		args = append(args, "--diff-merges=off")
	} else {
		// Only the first-parent line is read: a merge stands for the
		// branch it brought in, diffed against its first parent.
		args = append(args, "--diff-merges=first-parent")
	}
	return args
}

// logFields is the number of NUL-terminated fields of a commit header.
const logFields = 8

// loggedCommit is one commit as parseLog read it.
type loggedCommit struct {
	commit graph.Commit
	files  []graph.FileChange
}

// parseLog reads the output of the log pass and calls emit for each
// commit, in order. Output cut short (git stopped) ends the stream
// without an error: the last commit may then be incomplete, which the
// caller knows from git's exit status. Malformed output is an error.
func parseLog(r *bufio.Reader, emit func(*loggedCommit) error) error {
	var cur *loggedCommit
	flush := func() error {
		if cur == nil {
			return nil
		}
		c := cur
		cur = nil
		return emit(c)
	}
	for {
		b, err := r.ReadByte()
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			return err
		}
		switch b {
		case '\n', 0:
			continue
		case 0x1e:
			if err := flush(); err != nil {
				return err
			}
			c, complete, err := readCommitHeader(r)
			if err != nil {
				return err
			}
			if !complete {
				return nil // cut short inside the header
			}
			cur = c
		case ':':
			if cur == nil {
				return errors.New("git log: a file entry before any commit")
			}
			f, complete, err := readRawEntry(r)
			if err != nil {
				return fmt.Errorf("git log: commit %s: %w", cur.commit.Hash, err)
			}
			if !complete {
				return flush()
			}
			f.Commit = cur.commit.Hash
			cur.files = append(cur.files, f)
		default:
			return fmt.Errorf("git log: unexpected byte %q", b)
		}
	}
}

// readField reads up to the next NUL; complete is false at the end of the
// input.
func readField(r *bufio.Reader) (string, bool, error) {
	s, err := r.ReadString(0)
	if err == io.EOF {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return s[:len(s)-1], true, nil
}

func readCommitHeader(r *bufio.Reader) (*loggedCommit, bool, error) {
	var f [logFields]string
	for i := range f {
		s, ok, err := readField(r)
		if err != nil || !ok {
			return nil, false, err
		}
		f[i] = s
	}
	if !isHash(f[0]) {
		return nil, false, fmt.Errorf("git log: bad commit hash %q", f[0])
	}
	c := &loggedCommit{commit: graph.Commit{Hash: f[0], AuthorName: f[2], AuthorEmail: f[3],
		Subject: f[6], Message: strings.TrimRight(f[7], "\n")}}
	for _, p := range strings.Fields(f[1]) {
		if !isHash(p) {
			return nil, false, fmt.Errorf("git log: commit %s: bad parent %q", f[0], p)
		}
		c.commit.Parents = append(c.commit.Parents, p)
	}
	var err error
	if c.commit.AuthoredAt, c.commit.AuthorZone, err = parseRawDate(f[4]); err != nil {
		return nil, false, fmt.Errorf("git log: commit %s: author date: %w", f[0], err)
	}
	if c.commit.CommittedAt, c.commit.CommitZone, err = parseRawDate(f[5]); err != nil {
		return nil, false, fmt.Errorf("git log: commit %s: commit date: %w", f[0], err)
	}
	return c, true, nil
}

// parseRawDate reads git's raw date, "1700000000 +0130", into Unix
// seconds and the zone's offset in minutes.
func parseRawDate(s string) (int64, int, error) {
	secs, zone, ok := strings.Cut(strings.TrimSpace(s), " ")
	t, err := strconv.ParseInt(secs, 10, 64)
	if err != nil || !ok || len(zone) != 5 || (zone[0] != '+' && zone[0] != '-') {
		return 0, 0, fmt.Errorf("bad date %q", s)
	}
	hh, err1 := strconv.Atoi(zone[1:3])
	mm, err2 := strconv.Atoi(zone[3:5])
	if err1 != nil || err2 != nil || hh < 0 || mm < 0 {
		return 0, 0, fmt.Errorf("bad zone %q", zone)
	}
	off := hh*60 + mm
	if zone[0] == '-' {
		off = -off
	}
	return t, off, nil
}

// readRawEntry reads one raw entry after its ':'.
func readRawEntry(r *bufio.Reader) (graph.FileChange, bool, error) {
	var f graph.FileChange
	meta, ok, err := readField(r)
	if err != nil || !ok {
		return f, false, err
	}
	parts := strings.Fields(meta)
	if len(parts) != 5 || len(parts[4]) == 0 {
		return f, false, fmt.Errorf("bad raw entry %q", meta)
	}
	f.Status = parts[4][0]
	if bytes.IndexByte([]byte("ACDMRTUX"), f.Status) < 0 {
		return f, false, fmt.Errorf("bad status in raw entry %q", meta)
	}
	if !isHash(parts[2]) || !isHash(parts[3]) {
		return f, false, fmt.Errorf("bad blob in raw entry %q", meta)
	}
	f.OldBlob, f.NewBlob = blobOrEmpty(parts[2]), blobOrEmpty(parts[3])
	f.Additions, f.Deletions = -1, -1
	p, ok, err := readField(r)
	if err != nil || !ok {
		return f, false, err
	}
	f.Path = p
	if f.Status == 'R' || f.Status == 'C' {
		p2, ok, err := readField(r)
		if err != nil || !ok {
			return f, false, err
		}
		f.OldPath, f.Path = f.Path, p2
	}
	if f.Path == "" {
		return f, false, fmt.Errorf("raw entry %q without a path", meta)
	}
	if f.Status == 'C' {
		// A copy leaves its source in place: for this file it is an add.
		f.Status, f.OldPath, f.OldBlob = 'A', "", ""
	}
	return f, true, nil
}

// isHash reports whether s is a full object name (SHA-1 or SHA-256).
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// blobOrEmpty turns git's all-zero name (no file on that side) into "".
func blobOrEmpty(s string) string {
	if strings.Trim(s, "0") == "" {
		return ""
	}
	return s
}
