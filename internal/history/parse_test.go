package history

import (
	"bufio"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

const (
	hashA = "1111111111111111111111111111111111111111"
	hashB = "2222222222222222222222222222222222222222"
	blob1 = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	blob2 = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	zero  = "0000000000000000000000000000000000000000"
)

// sampleLog is what the log pass prints for two commits: a merge without
// files whose message holds a record separator and a line starting with
// ':', and a commit with a rename, an add, a copy and a deletion.
var sampleLog = "\x1e" + hashA + "\x00" + hashB + " " + hashB + "\x00Zoë\x00z@example.org\x001700000000 +0130\x00" +
	"1700000100 -0800\x00Merge it\x00Merge it\n\n\x1e:not a record\n\x00" +
	"\n\x1e" + hashB + "\x00\x00Ann\x00ann@example.com\x001600000000 +0000\x001600000000 +0000\x00first\x00first\n\x00" +
	"\n:100644 100644 " + blob1 + " " + blob2 + " R087\x00old name.go\x00new name.go\x00" +
	":000000 100644 " + zero + " " + blob1 + " A\x00añadido.go\x00" +
	":100644 100644 " + blob1 + " " + blob2 + " C075\x00src.go\x00copy.go\x00" +
	":100644 000000 " + blob2 + " " + zero + " D\x00gone.go\x00"

func parseLogString(s string) ([]loggedCommit, error) {
	var out []loggedCommit
	err := parseLog(bufio.NewReader(strings.NewReader(s)), func(c *loggedCommit) error {
		out = append(out, *c)
		return nil
	})
	return out, err
}

func TestParseLog(t *testing.T) {
	got, err := parseLogString(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	want := []loggedCommit{
		{commit: graph.Commit{Hash: hashA, Parents: []string{hashB, hashB}, AuthorName: "Zoë", AuthorEmail: "z@example.org",
			AuthoredAt: 1700000000, AuthorZone: 90, CommittedAt: 1700000100, CommitZone: -480, Subject: "Merge it",
			Message: "Merge it\n\n\x1e:not a record"}},
		{commit: graph.Commit{Hash: hashB, AuthorName: "Ann", AuthorEmail: "ann@example.com", AuthoredAt: 1600000000,
			CommittedAt: 1600000000, Subject: "first", Message: "first"},
			files: []graph.FileChange{
				{Commit: hashB, Status: 'R', Path: "new name.go", OldPath: "old name.go", OldBlob: blob1, NewBlob: blob2, Additions: -1, Deletions: -1},
				{Commit: hashB, Status: 'A', Path: "añadido.go", NewBlob: blob1, Additions: -1, Deletions: -1},
				{Commit: hashB, Status: 'A', Path: "copy.go", NewBlob: blob2, Additions: -1, Deletions: -1},
				{Commit: hashB, Status: 'D', Path: "gone.go", OldBlob: blob2, Additions: -1, Deletions: -1},
			}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseLog:\n got %+v\nwant %+v", got, want)
	}
	// Cut anywhere, the output yields a prefix of the commits and no error
	// (git stopped; its exit status tells), or an error, never a panic.
	for i := range sampleLog {
		cut, err := parseLogString(sampleLog[:i])
		if err == nil && len(cut) > len(want) {
			t.Fatalf("cut at %d: %d commits", i, len(cut))
		}
	}
	for _, bad := range []string{"x", "\x1enothex\x00\x00a\x00b\x001 +0000\x001 +0000\x00s\x00m\x00",
		":100644 100644 " + blob1 + " " + blob2 + " M\x00a.go\x00",
		"\x1e" + hashA + "\x00\x00a\x00b\x00yesterday\x001 +0000\x00s\x00m\x00"} {
		if _, err := parseLogString(bad); err == nil {
			t.Errorf("parseLog(%q): no error", bad)
		}
	}
}

// formatLog writes commits in the log pass's format: parsing it again
// gives the same commits.
func formatLog(commits []loggedCommit) string {
	var b strings.Builder
	zone := func(m int) string {
		sign := '+'
		if m < 0 {
			sign, m = '-', -m
		}
		return fmt.Sprintf("%c%02d%02d", sign, m/60, m%60)
	}
	orZero := func(s string) string {
		if s == "" {
			return zero
		}
		return s
	}
	for _, c := range commits {
		fmt.Fprintf(&b, "\x1e%s\x00%s\x00%s\x00%s\x00%d %s\x00%d %s\x00%s\x00%s\n\x00\n", c.commit.Hash,
			strings.Join(c.commit.Parents, " "), c.commit.AuthorName, c.commit.AuthorEmail, c.commit.AuthoredAt,
			zone(c.commit.AuthorZone), c.commit.CommittedAt, zone(c.commit.CommitZone), c.commit.Subject, c.commit.Message)
		for _, f := range c.files {
			fmt.Fprintf(&b, ":100644 100644 %s %s %c\x00", orZero(f.OldBlob), orZero(f.NewBlob), f.Status)
			if f.Status == 'R' {
				b.WriteString(f.OldPath + "\x00")
			}
			b.WriteString(f.Path + "\x00")
		}
	}
	return b.String()
}

// FuzzParseLog: any input parses or fails without panicking, and what
// parses survives being written back and read again.
func FuzzParseLog(f *testing.F) {
	f.Add(sampleLog)
	f.Add("\x1e" + hashA + "\x00\x00\x00\x000 +0000\x000 +0000\x00\x00\x00")
	f.Add(":")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseLogString(s)
		if err != nil {
			return
		}
		for _, c := range got {
			if !isHash(c.commit.Hash) {
				t.Fatalf("bad hash %q", c.commit.Hash)
			}
			for _, fc := range c.files {
				if fc.Path == "" || fc.Commit != c.commit.Hash {
					t.Fatalf("bad file %+v", fc)
				}
			}
		}
		if !roundTrips(got) {
			return // a message or name holding NUL-like structure git never prints
		}
		again, err := parseLogString(formatLog(got))
		if err != nil {
			t.Fatalf("written back: %v", err)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("written back:\n got %+v\nwant %+v", again, got)
		}
	})
}

// roundTrips reports whether formatLog can write the commits as git
// would: the message is trimmed as parseLog trims it and no field holds
// a NUL (which git cannot print).
func roundTrips(cs []loggedCommit) bool {
	for _, c := range cs {
		m := c.commit
		for _, s := range []string{m.AuthorName, m.AuthorEmail, m.Subject, m.Message} {
			if strings.ContainsRune(s, 0) {
				return false
			}
		}
		if strings.HasSuffix(m.Message, "\n") {
			return false
		}
		for _, p := range m.Parents {
			if !isHash(p) {
				return false
			}
		}
	}
	return true
}

// sampleDiff is what the diff pass prints for two commits: hunks whose
// content lines look like headers, a missing newline marker, a binary
// file, a pure rename (no index line) and a hunk without counts.
var sampleDiff = hashA + "\n" +
	"diff --git a/x.go b/x.go\nindex " + blob1 + ".." + blob2 + " 100644\n--- a/x.go\n+++ b/x.go\n" +
	"@@ -3,2 +3,3 @@ func f() {\n-diff --git a/y b/y\n-@@ -1 +1 @@\n+" + hashB + "\n+index 1..2\n+x\n\\ No newline at end of file\n" +
	"@@ -10 +11,0 @@\n-gone\n" +
	"diff --git a/img.png b/img.png\nindex " + blob1 + ".." + blob2 + " 100644\nBinary files a/img.png and b/img.png differ\n" +
	hashB + "\n" +
	"diff --git a/a.go b/b.go\nsimilarity index 100%\nrename from a.go\nrename to b.go\n" +
	"diff --git a/new.go b/new.go\nnew file mode 100644\nindex " + zero + ".." + blob1 + "\n--- /dev/null\n+++ b/new.go\n@@ -0,0 +1 @@\n+package x\n"

func parseDiffString(s string) ([]commitDiff, error) {
	var out []commitDiff
	err := parseDiff(bufio.NewReader(strings.NewReader(s)), func(d *commitDiff) error {
		out = append(out, *d)
		return nil
	})
	return out, err
}

func TestParseDiff(t *testing.T) {
	got, err := parseDiffString(sampleDiff)
	if err != nil {
		t.Fatal(err)
	}
	want := []commitDiff{
		{hash: hashA, files: []fileDiff{
			{oldBlob: blob1, newBlob: blob2, indexed: true, hunks: []hunk{{3, 2, 3, 3}, {10, 1, 11, 0}}, additions: 3, deletions: 3},
			{oldBlob: blob1, newBlob: blob2, indexed: true, binary: true},
		}},
		{hash: hashB, files: []fileDiff{
			{},
			{newBlob: blob1, indexed: true, hunks: []hunk{{0, 0, 1, 1}}, additions: 1},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseDiff:\n got %+v\nwant %+v", got, want)
	}
	for i := range sampleDiff {
		if cut, err := parseDiffString(sampleDiff[:i]); err == nil && len(cut) > len(want) {
			t.Fatalf("cut at %d: %d commits", i, len(cut))
		}
	}
	for _, bad := range []string{"diff --git a/x b/x\n", hashA + "\n@@ -1 +1 @@\n", hashA + "\ndiff --git a/x b/x\n@@ -a +1 @@\n",
		hashA + "\ndiff --git a/x b/x\nindex 12..34\n"} {
		if _, err := parseDiffString(bad); err == nil {
			t.Errorf("parseDiff(%q): no error", bad)
		}
	}
}

// FuzzParseDiff: any input parses or fails without panicking, and the
// line counts of every file are the sums of its hunks.
func FuzzParseDiff(f *testing.F) {
	f.Add(sampleDiff)
	f.Add(hashA + "\ndiff --git a/x b/x\n@@ -1,2 +1 @@\n-a\n-b\n+c\n")
	f.Add(hashA + "\n" + strings.Repeat("x", 5000) + "\n")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseDiffString(s)
		if err != nil {
			return
		}
		for _, d := range got {
			if !isHash(d.hash) {
				t.Fatalf("bad hash %q", d.hash)
			}
			for _, fd := range d.files {
				var adds, dels int
				for _, h := range fd.hunks {
					if h.oldCount < 0 || h.newCount < 0 || h.oldStart < 0 || h.newStart < 0 {
						t.Fatalf("negative hunk %+v", h)
					}
					adds += int(h.newCount)
					dels += int(h.oldCount)
				}
				if adds != fd.additions || dels != fd.deletions {
					t.Fatalf("counts %d/%d, hunks say %d/%d", fd.additions, fd.deletions, adds, dels)
				}
			}
		}
	})
}
