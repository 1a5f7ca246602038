package timeline

import (
	"strings"
	"testing"
)

func TestMarksAreDumpedInOrderWhenOn(t *testing.T) {
	was := on
	defer func() { on = was }()

	on = false
	Mark("unseen")
	var b strings.Builder
	dump(&b)
	if b.Len() != 0 || len(notes) != 0 {
		t.Fatalf("off, the timeline noted %q", b.String())
	}

	on = true
	Mark("first %d", 1)
	Mark("second")
	dump(&b)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], " ms  first 1") || !strings.HasSuffix(lines[1], " ms  second") || !strings.HasSuffix(lines[2], " ms  end") {
		t.Errorf("dumped %q", lines)
	}
	if len(notes) != 0 {
		t.Errorf("notes kept after the dump: %q", notes)
	}
}
