package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

func TestReadRevisionFiles(t *testing.T) {
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), map[string]string{
		"a.go":          "package a\n\nfunc A() {}\n",
		"dir/b c.go":    "package dir\n",
		"dir/empty.txt": "",
	})
	head := testrepo.Git(t, root, "rev-parse", "HEAD")
	specs := []string{head + ":a.go", head + ":nope.go", head + ":dir/b c.go", head + ":dir/x y.go", head + ":dir/empty.txt", "bad\nspec", head + ":dir"}
	got, err := ReadRevisionFiles(context.Background(), root, specs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{head + ":a.go": "package a\n\nfunc A() {}\n", head + ":dir/b c.go": "package dir\n", head + ":dir/empty.txt": ""}
	if len(got) != len(want) {
		t.Errorf("got %d files, want %d: %q", len(got), len(want), got)
	}
	for k, v := range want {
		if b, ok := got[k]; !ok || string(b) != v {
			t.Errorf("%s: got %q (%v), want %q", k, b, ok, v)
		}
	}
}

func TestLinesOf(t *testing.T) {
	src := []byte("one\ntwo\nthree\n")
	cases := []struct {
		from, to int
		want     string
	}{
		{1, 1, "one\n"}, {2, 3, "two\nthree\n"}, {0, 2, "one\ntwo\n"}, {3, 9, "three\n"}, {3, 2, ""},
	}
	for _, c := range cases {
		if got, cut := LinesOf(src, c.from, c.to); got != c.want || cut {
			t.Errorf("LinesOf(%d, %d) = %q, %v; want %q", c.from, c.to, got, cut, c.want)
		}
	}
}
