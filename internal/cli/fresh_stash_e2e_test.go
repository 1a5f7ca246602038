package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFreshnessByContent: an index built with an uncommitted edit stays
// fresh through `git stash && git stash pop` (the file is touched, its
// content is what was indexed), and turns stale when the content changes.
func TestFreshnessByContent(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	file := filepath.Join(root, "order", "order.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(src, []byte("\n// an uncommitted note\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, home, root, "analyze", "-q")
	if r := run(t, home, root, "status"); r.code != 0 {
		t.Fatalf("status after analyze: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	time.Sleep(20 * time.Millisecond) // the pop's files are newer than the index
	git(t, root, "stash", "-q")
	git(t, root, "stash", "pop", "-q")
	if r := run(t, home, root, "status"); r.code != 0 {
		t.Errorf("status after git stash && git stash pop: exit %d, want 0 (fresh)\n%s", r.code, r.stdout)
	}
	if err := os.WriteFile(file, append(src, []byte("\n// another note\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, home, root, "status"); r.code != 3 || !strings.Contains(r.stdout, "order/order.go") {
		t.Errorf("status after an edit: exit %d, want 3 naming the file\n%s", r.code, r.stdout)
	}
}
