package repofiles

import "testing"

func TestIgnoreRules(t *testing.T) {
	var r ignoreRules
	r.add("", "*.log\n!important.log\n/root-only.txt\ndocs/**/draft.md\nbuild/\nsub/deep/\n\\#hash\ntrailing   \n")
	r.add("nested", "local.txt\n/anchored.txt\n")
	cases := []struct {
		path  string
		dir   bool
		want  bool
		about string
	}{
		{"a.log", false, true, "glob"},
		{"x/y/a.log", false, true, "glob at depth"},
		{"important.log", false, false, "negation"},
		{"root-only.txt", false, true, "anchored"},
		{"x/root-only.txt", false, false, "anchored elsewhere"},
		{"docs/draft.md", false, true, "** matches zero dirs"},
		{"docs/a/b/draft.md", false, true, "** matches dirs"},
		{"build", true, true, "dir-only on a dir"},
		{"build", false, false, "dir-only on a file"},
		{"sub/deep", true, true, "anchored dir"},
		{"#hash", false, true, "escaped hash"},
		{"trailing", false, true, "trailing spaces trimmed"},
		{"nested/local.txt", false, true, "nested file applies below its dir"},
		{"nested/x/local.txt", false, true, "nested unanchored at depth"},
		{"local.txt", false, false, "nested file does not apply above"},
		{"nested/anchored.txt", false, true, "nested anchored"},
		{"nested/x/anchored.txt", false, false, "nested anchored not deeper"},
	}
	for _, c := range cases {
		if got := r.ignored(c.path, c.dir); got != c.want {
			t.Errorf("%s (%s): ignored = %v, want %v", c.path, c.about, got, c.want)
		}
	}
}

// FuzzIgnoreRules: any ignore file and any path must neither panic nor
// loop.
func FuzzIgnoreRules(f *testing.F) {
	f.Add("*.log\n!keep.log\n/a/**/b/\n\\#x\n[a-", "a/x/b/c.log", true)
	f.Add("**\n!**/\n", "deep/path/file", false)
	f.Fuzz(func(t *testing.T, rules, path string, dir bool) {
		var r ignoreRules
		r.add("", rules)
		r.add("sub", rules)
		r.ignored(path, dir)
		r.ignored("sub/"+path, dir)
	})
}
