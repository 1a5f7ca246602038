package browsertest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/httpserver"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// chromiumPath finds the browser: $GITNEXUS_CHROMIUM, else Debian's
// chromium on the PATH. Without one the test is skipped under -short and
// fails otherwise.
func chromiumPath(t testing.TB) string {
	t.Helper()
	names := []string{"/usr/bin/chromium", "chromium", "chromium-browser"}
	if p := os.Getenv("GITNEXUS_CHROMIUM"); p != "" {
		names = []string{p}
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const how = "Chromium is not installed: apt-get install -y chromium (or set GITNEXUS_CHROMIUM)"
	if testing.Short() {
		t.Skip(how)
	}
	t.Fatal(how)
	return ""
}

// browserFlags start Chromium headless with nothing that reaches out to
// the network on its own (this machine refuses such connections).
func browserFlags(t testing.TB, exe string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("metrics-recording-only", true),
		// WebGL without a GPU: SwiftShader, which Chromium no longer falls
		// back to on its own.
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.WindowSize(1280, 900),
	}
}

// page is one browser tab on the web view with what it reported.
type browserPage struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string // console errors, exceptions, dialogs
}

// newPage starts Chromium and a tab; both end with the test.
func newPage(t *testing.T, base string) *browserPage {
	t.Helper()
	exe := chromiumPath(t)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserFlags(t, exe)...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})
	p := &browserPage{t: t, ctx: ctx, base: base}
	// Subscribe before the first page loads, so that nothing is missed.
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				p.problem(fmt.Sprintf("console %s (%s:%d)", m, m.URL, m.Line))
			}
		}
	}()
	if err := chromedp.Listen(ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			p.problem(fmt.Sprintf("a %s dialog opened: %q", d.Type, d.Message))
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, pr := range p.problems {
			t.Errorf("page: %s", pr)
		}
	})
	return p
}

func (p *browserPage) problem(s string) {
	p.mu.Lock()
	p.problems = append(p.problems, s)
	p.mu.Unlock()
}

// do runs actions and fails the test on an error.
func (p *browserPage) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// open loads the page at path (with its hash).
func (p *browserPage) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.base+path))
}

// route changes the hash of the loaded page.
func (p *browserPage) route(hash string) {
	p.t.Helper()
	p.do("route "+hash, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("location.hash = %q", hash)))
}

// wait polls a JavaScript expression until it is truthy (10 s).
func (p *browserPage) wait(what, expr string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		text, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById('main') ? document.getElementById('main').innerText.slice(0, 2000) : ''`))
		p.t.Fatalf("waiting for %s (%s): %v\nthe page shows:\n%s", what, expr, err, text)
	}
}

// eval evaluates an expression into T.
func eval[T any](p *browserPage, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// text is the text of the first element that matches a CSS selector.
func (p *browserPage) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(document.querySelector(%q) || {textContent: ''}).textContent`, sel))
}

func (p *browserPage) key(keys string, opts ...chromedp.KeyOption) {
	p.t.Helper()
	p.do("key "+keys, chromedp.KeyEvent(keys, opts...))
}

// screenshot writes the page to <dir>/<name>.png.
func (p *browserPage) screenshot(name string) {
	p.t.Helper()
	// Let the graph's first frame and the last answers land.
	p.do("settle", chromedp.Sleep(150*time.Millisecond))
	b, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(screenshotDir(p.t), name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

var logDirOnce sync.Once

// screenshotDir is $GITNEXUS_SCREENSHOTS, else test-output/webui at the
// repository's root.
func screenshotDir(t testing.TB) string {
	dir := os.Getenv("GITNEXUS_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "test-output", "webui")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	logDirOnce.Do(func() { t.Logf("screenshots in %s", dir) })
	return dir
}

// fixture is the shop with its history, and one more commit whose file
// name and message are markup, indexed and served on 127.0.0.1.
type fixture struct {
	base   string
	root   string
	hashes []string // newest first; hashes[0] is the markup commit
}

const (
	markupFile    = `docs/<img src=x onerror=alert(1)>.py`
	markupMessage = `<script>window.__pwned=1</script>`
)

func startFixture(t *testing.T, opts httpserver.Options) fixture {
	t.Helper()
	testrepo.Home(t)
	root, _ := testrepo.HistoryShop(t)
	testrepo.Write(t, root, map[string]string{markupFile: "def hello(name):\n    return \"<b>\" + name\n\n\ndef main():\n    print(hello(\"x\"))\n"})
	testrepo.Git(t, root, "add", "-A")
	testrepo.CommitAt(t, root, "2024-01-08", "commit", "-q", "-m", markupMessage)
	hashes := strings.Fields(testrepo.Git(t, root, "rev-list", "HEAD"))
	testrepo.IndexHistory(t, root)
	return fixture{base: serve(t, opts), root: root, hashes: hashes}
}

// serve runs the server over the registered repositories until the test ends.
func serve(t *testing.T, opts httpserver.Options) string {
	t.Helper()
	b, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	opts.Addr = "127.0.0.1:0"
	srv, err := httpserver.New(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + l.Addr().String()
}
