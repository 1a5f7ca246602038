package agentsetup

import (
	"bytes"
	"fmt"
	"strings"
)

// Action is what setup did, or would do, to one file.
type Action string

// Actions.
const (
	Created   Action = "created"   // a new file
	Added     Action = "added"     // an entry added to an existing file
	Updated   Action = "updated"   // an entry of ours replaced
	Unchanged Action = "unchanged" // already as it should be
	Removed   Action = "removed"   // an entry taken out of a file
	Deleted   Action = "deleted"   // a file setup had created, removed
	Absent    Action = "absent"    // nothing of ours to remove
	Kept      Action = "kept"      // left alone on purpose (see Note)
	Failed    Action = "failed"    // see Err
)

// Change is one file's outcome.
type Change struct {
	// What names the target: an agent, a skill, an instruction block.
	What   string
	Path   string
	Action Action
	// Note adds a detail ("changed since setup: left alone").
	Note string
	// Backup is the copy made before the file was changed.
	Backup string
	// Diff shows the lines changed (set on dry runs).
	Diff string
	Err  error
}

// Changed reports whether the file was (or would be) written.
func (c Change) Changed() bool {
	switch c.Action {
	case Created, Added, Updated, Removed, Deleted:
		return true
	}
	return false
}

// lineDiff shows the lines that differ between old and new as one hunk:
// the first and last differing lines and everything between, "-" for old
// and "+" for new, after a line giving the old line number.
func lineDiff(old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := splitKeep(old), splitKeep(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var w strings.Builder
	fmt.Fprintf(&w, "@@ line %d @@\n", pre+1)
	for _, l := range a[pre : len(a)-suf] {
		w.WriteString("-" + strings.TrimRight(l, "\r\n") + "\n")
	}
	for _, l := range b[pre : len(b)-suf] {
		w.WriteString("+" + strings.TrimRight(l, "\r\n") + "\n")
	}
	return w.String()
}

// splitKeep splits after each line break, keeping it, so that a missing
// final line break is a difference.
func splitKeep(s []byte) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, string(s))
			break
		}
		out = append(out, string(s[:i+1]))
		s = s[i+1:]
	}
	return out
}
