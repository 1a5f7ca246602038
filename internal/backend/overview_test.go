package backend

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
)

// TestOverviewEntryPointsOfALibrary: a library's likely entry points are
// its constructor and main API, not the methods the standard library
// calls through interfaces, an unexported default handler, or internal
// code.
func TestOverviewEntryPointsOfALibrary(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "lib"), map[string]string{
		"go.mod": "module example.com/lib\n\ngo 1.22\n",
		"lib.go": `package lib

import (
	"encoding/json"
	"fmt"

	"example.com/lib/internal/parse"
)

type Runner struct{ steps []string }

func New(steps ...string) *Runner { return &Runner{steps: clean(steps)} }

func (r *Runner) Run() error {
	for _, s := range r.steps {
		if err := r.step(s); err != nil {
			return wrap(err)
		}
	}
	return nil
}

func (r *Runner) step(s string) error { return parse.Check(s) }

func (r *Runner) MarshalJSON() ([]byte, error) { return json.Marshal(clean(r.steps)) }

func (r *Runner) String() string { return fmt.Sprint(clean(r.steps)) }

func defaultErrorHandler(err error) { fmt.Println(wrap(err)) }

var OnError = defaultErrorHandler

func clean(s []string) []string { return s }

func wrap(err error) error { return fmt.Errorf("lib: %w", err) }
`,
		"internal/parse/parse.go": `package parse

import "errors"

func Check(s string) error {
	if s == "" {
		return errors.New("empty step")
	}
	return nil
}

func Debug(s string) error { return Check(s) }
`,
		"lib_test.go": `package lib

import "testing"

func TestRun(t *testing.T) {
	if err := New("a").Run(); err != nil {
		t.Fatal(err)
	}
}
`,
	})
	index(t, root)
	b := newBackend(t, Options{Cwd: root})
	res, err := b.CallTool(context.Background(), "overview", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Data.(analysis.OverviewResult).EntryPoints {
		got = append(got, e.Group+" "+e.QualifiedName)
	}
	// Run reaches step, Check, wrap (3), New clean (1); among the others,
	// Debug reaches Check, defaultErrorHandler wrap, the two methods clean.
	want := []string{"api lib.Runner.Run", "api lib.New", "other parse.Debug", "other lib.defaultErrorHandler",
		"other lib.Runner.MarshalJSON", "other lib.Runner.String"}
	if !slices.Equal(got, want) {
		t.Errorf("entry points:\n got %q\nwant %q\n%s", got, want, res.Markdown())
	}
}
