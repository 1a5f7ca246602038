package history

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLineHunks(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []hunk
	}{
		{"same", "a\nb\n", "a\nb\n", nil},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", []hunk{{2, 1, 2, 1}}},
		{"inserted after the first line", "a\nc\n", "a\nb\nc\n", []hunk{{1, 0, 2, 1}}},
		{"inserted at the top", "b\n", "a\nb\n", []hunk{{0, 0, 1, 1}}},
		{"deleted at the end", "a\nb\n", "a\n", []hunk{{2, 1, 1, 0}}},
		{"two places", "a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\nf\n", []hunk{{1, 1, 1, 1}, {5, 1, 5, 2}}},
		{"newline added at the end", "a\nb", "a\nb\n", []hunk{{2, 1, 2, 1}}},
		{"from nothing", "", "a\n", []hunk{{0, 0, 1, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lineHunks([]byte(tc.a), []byte(tc.b))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lineHunks(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			checkHunks(t, tc.a, tc.b, got)
			if g := gitHunks(t, tc.a, tc.b); !reflect.DeepEqual(g, tc.want) {
				t.Errorf("git diff -U0 says %v, want %v", g, tc.want)
			}
		})
	}
}

// TestLineHunksRandom: on random edits, the hunks turn one version into the
// other, touch only changed lines, and are as few lines as git's.
func TestLineHunksRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 300; i++ {
		a := randomLines(rng, rng.Intn(60))
		b := mutateLines(rng, a)
		got := lineHunks([]byte(a), []byte(b))
		checkHunks(t, a, b, got)
		if i%30 == 0 { // git is slow to start: a sample
			if g := gitHunks(t, a, b); changedLines(g) < changedLines(got) {
				t.Errorf("%v covers %d lines, git's %v %d", got, changedLines(got), g, changedLines(g))
			}
		}
	}
	// Past maxDiffEdits, one hunk between the shared start and end.
	a := randomLines(rng, 2*maxDiffEdits)
	b := "head\n" + strings.ToUpper(a) + "tail\n"
	got := lineHunks([]byte(a), []byte(b))
	checkHunks(t, a, b, got)
	if len(got) != 1 {
		t.Errorf("a diff past the bound: %d hunks, want 1", len(got))
	}
}

func changedLines(hs []hunk) int {
	n := 0
	for _, h := range hs {
		n += int(h.oldCount + h.newCount)
	}
	return n
}

// checkHunks applies hs to a and requires b, with each hunk's lines
// differing from the other side's at its edges (no line of a hunk could
// have stayed).
func checkHunks(t *testing.T, a, b string, hs []hunk) {
	t.Helper()
	la, lb := splitKeep(a), splitKeep(b)
	var out []string
	i := 0 // lines of a used
	for _, h := range hs {
		from := int(h.oldStart)
		if h.oldCount > 0 {
			from--
		}
		to := int(h.newStart)
		if h.newCount > 0 {
			to--
		}
		if from < i || from-i != to-len(out) {
			t.Fatalf("hunk %v does not line up (a line %d, b line %d) in %v", h, i, len(out), hs)
		}
		out = append(out, la[i:from]...)
		out = append(out, lb[to:to+int(h.newCount)]...)
		i = from + int(h.oldCount)
	}
	out = append(out, la[i:]...)
	if strings.Join(out, "") != b {
		t.Fatalf("hunks %v turn %q into %q, not %q", hs, a, strings.Join(out, ""), b)
	}
}

func splitKeep(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func randomLines(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(string(rune('a' + rng.Intn(6))))
		b.WriteByte('\n')
	}
	return b.String()
}

func mutateLines(rng *rand.Rand, s string) string {
	lines := strings.SplitAfter(s, "\n")
	lines = lines[:len(lines)-1]
	for e := rng.Intn(6); e > 0; e-- {
		p := 0
		if len(lines) > 0 {
			p = rng.Intn(len(lines) + 1)
		}
		switch rng.Intn(3) {
		case 0:
			lines = append(lines[:p], append([]string{string(rune('a'+rng.Intn(8))) + "\n"}, lines[p:]...)...)
		case 1:
			if p < len(lines) {
				lines = append(lines[:p], lines[p+1:]...)
			}
		default:
			if p < len(lines) {
				lines[p] = "x" + lines[p]
			}
		}
	}
	return strings.Join(lines, "")
}

// gitHunks is what git diff -U0 says of two versions.
func gitHunks(t *testing.T, a, b string) []hunk {
	t.Helper()
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(pa, []byte(a), 0o644)
	os.WriteFile(pb, []byte(b), 0o644)
	out, _ := exec.Command("git", "diff", "--no-index", "--no-color", "-U0", pa, pb).Output()
	var hs []hunk
	for _, l := range bytes.Split(out, []byte{'\n'}) {
		if !bytes.HasPrefix(l, []byte("@@ -")) {
			continue
		}
		if h, ok := parseHunkHeader(l); ok {
			hs = append(hs, h)
		}
	}
	return hs
}
