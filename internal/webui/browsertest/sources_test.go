package browsertest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// htmlSinks are the ways a script can turn a string into markup or code.
// The web view builds its DOM with createElement and textContent only, so
// that names, paths and commit messages from the API stay text.
var htmlSinks = regexp.MustCompile(`\.innerHTML\b|\.outerHTML\b|\binsertAdjacentHTML\b|\bdocument\.write(ln)?\b|\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|\bset(Timeout|Interval)\s*\(\s*['"` + "`" + `]|\bcreateContextualFragment\b|\bsrcdoc\b`)

// inlineCode is what the page's Content-Security-Policy refuses in HTML:
// a script without src, a style element or attribute, an event attribute.
var inlineCode = regexp.MustCompile(`(?i)<script(\s[^>]*)?>\s*[^<\s]|<style\b|\sstyle\s*=|\son[a-z]+\s*=`)

// TestSourcesBuildDOMWithoutHTML fails when the sources of the web view,
// or the bundle built from them, use an HTML or code sink, or when the
// page holds inline code.
func TestSourcesBuildDOMWithoutHTML(t *testing.T) {
	root := repoRoot(t)
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "web"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".js", ".mjs", ".ts", ".html":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "internal", "webui", "dist", "app.js"), filepath.Join(root, "internal", "webui", "dist", "index.html"))
	if len(files) < 5 {
		t.Fatalf("found only %v: is this the repository?", files)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		for _, loc := range htmlSinks.FindAllIndex(b, -1) {
			line := 1 + strings.Count(string(b[:loc[0]]), "\n")
			t.Errorf("%s:%d: %q: build the DOM with createElement/textContent/setAttribute instead", rel, line, b[loc[0]:loc[1]])
		}
		if filepath.Ext(p) == ".html" {
			for _, loc := range inlineCode.FindAllIndex(b, -1) {
				line := 1 + strings.Count(string(b[:loc[0]]), "\n")
				t.Errorf("%s:%d: %q: inline code, which the page's Content-Security-Policy refuses", rel, line, b[loc[0]:loc[1]])
			}
		}
	}
}

func TestSinkPatterns(t *testing.T) {
	for _, bad := range []string{"el.innerHTML = x", "el.outerHTML=x", "el.insertAdjacentHTML('beforeend', x)", "document.write(x)",
		"eval(x)", "new Function('a', x)", "setTimeout('alert(1)', 1)", "range.createContextualFragment(x)"} {
		if !htmlSinks.MatchString(bad) {
			t.Errorf("%q is not caught", bad)
		}
	}
	for _, ok := range []string{"el.textContent = x", "retrieval(x)", "setTimeout(() => run(), 150)", "functionSource(id)"} {
		if htmlSinks.MatchString(ok) {
			t.Errorf("%q is caught", ok)
		}
	}
	for _, bad := range []string{"<script>alert(1)</script>", `<p style="color:red">`, `<a onclick="x()">`, "<style>p{}</style>"} {
		if !inlineCode.MatchString(bad) {
			t.Errorf("%q is not caught", bad)
		}
	}
	if inlineCode.MatchString(`<script type="module" src="/assets/app.js"></script>`) {
		t.Error("an external script is caught")
	}
}

func repoRoot(t testing.TB) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above " + wd)
		}
	}
}
