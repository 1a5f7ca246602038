package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestFileHistoryFollowsAsGit: get_file_history lists, for a path, the
// commits git log --first-parent --follow lists, on histories that rename,
// delete and add files at the same paths.
func TestFileHistoryFollowsAsGit(t *testing.T) {
	type step struct {
		msg   string
		write map[string]string // "" deletes
		mv    [2]string
	}
	goFile := func(body string) string { return "package p\n\n" + body + "\n" }
	cases := []struct {
		name  string
		steps []step
		path  string
		text  string // in the answer's text
	}{
		{"an unrelated earlier file at the path", []step{
			{msg: "add a.go, a first file", write: map[string]string{"a.go": goFile("func First() {}")}},
			{msg: "delete a.go", write: map[string]string{"a.go": "", "keep.go": goFile("")}},
			{msg: "add b.go", write: map[string]string{"b.go": goFile("func B() int {\n\treturn 1\n}")}},
			{msg: "rename b.go to a.go", mv: [2]string{"b.go", "a.go"}},
		}, "a.go", "rename b.go to a.go"},
		{"a file replaced, then renamed to the old path", []step{
			{msg: "add a.go", write: map[string]string{"a.go": goFile("func A() {}")}},
			{msg: "replace a.go by b.go", write: map[string]string{"a.go": "", "b.go": goFile("type T struct{ x, y, z int }")}},
			{msg: "rename b.go to a.go", mv: [2]string{"b.go", "a.go"}},
		}, "a.go", ""},
		{"a binary file renamed", []step{
			{msg: "add data.bin", write: map[string]string{"p.go": goFile(""), "data.bin": "\x00\x01\x02binary\x00" + strings.Repeat("\x03", 300)}},
			{msg: "rename data.bin to data2.bin", mv: [2]string{"data.bin", "data2.bin"}},
		}, "data2.bin", "also named `data.bin`"},
		{"deleted and added again", []step{
			{msg: "add ci.yml", write: map[string]string{"p.go": goFile(""), "ci.yml": "on: push\n"}},
			{msg: "edit ci.yml", write: map[string]string{"ci.yml": "on: [push]\n"}},
			{msg: "drop ci.yml", write: map[string]string{"ci.yml": ""}},
			{msg: "bring ci.yml back", write: map[string]string{"ci.yml": "on: [push, pull_request]\n"}},
		}, "ci.yml", ""},
		{"renamed away, a new file at the path", []step{
			{msg: "add a.go", write: map[string]string{"a.go": goFile("func A() int {\n\treturn 1\n}")}},
			{msg: "rename a.go to c.go", mv: [2]string{"a.go", "c.go"}},
			{msg: "a new a.go", write: map[string]string{"a.go": goFile("type Other struct{ s string }")}},
		}, "a.go", "renamed away to c.go"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newHome(t)
			root := filepath.Join(t.TempDir(), "r")
			for i, s := range c.steps {
				for p, content := range s.write {
					if content == "" {
						testrepo.Git(t, root, "rm", "-q", p)
						continue
					}
					testrepo.Write(t, root, map[string]string{p: content})
				}
				if i == 0 {
					testrepo.Git(t, root, "init", "-q", "-b", "main")
				}
				if s.mv[0] != "" {
					testrepo.Git(t, root, "mv", s.mv[0], s.mv[1])
				}
				testrepo.Git(t, root, "add", "-A")
				testrepo.CommitAt(t, root, fmt.Sprintf("2024-03-%02d", i+1), "commit", "-q", "-m", s.msg)
			}
			want := strings.Fields(testrepo.Git(t, root, "log", "--first-parent", "--follow", "--format=%H", "--", c.path))
			testrepo.IndexHistory(t, root)
			b := newBackend(t, Options{IdleTimeout: -1})
			res, err := b.CallTool(context.Background(), "get_file_history", map[string]any{"path": c.path, "limit": 100})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, fc := range res.Data.(analysis.FileHistoryResult).Commits {
				got = append(got, fc.Hash)
			}
			if !reflect.DeepEqual(got, want) {
				log, _ := os.ReadFile(filepath.Join(root, ".git", "HEAD"))
				t.Fatalf("get_file_history %s: %v\ngit log --follow: %v\n%s%s", c.path, got, want, log, res.Markdown())
			}
			if c.text != "" && !strings.Contains(res.Markdown(), c.text) {
				t.Errorf("the answer does not say %q:\n%s", c.text, res.Markdown())
			}
		})
	}
}
