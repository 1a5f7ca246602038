// Command webui measures the web view of `gitnexus serve` in headless
// Chromium over an indexed repository:
//
//   - first paint: first-contentful-paint of the search page, loaded
//     afresh each run (target < 1 s);
//   - symbol to graph: from opening a symbol's page (the page's mark
//     symbol-open) to its neighbourhood graph drawn (graph-drawn)
//     (target < 300 ms);
//   - panning: frames per second (requestAnimationFrame callbacks) while
//     the mouse drags the canvas of a neighbourhood of up to 5,000 nodes
//     (target ≥ 30 fps).
//
// It serves the repositories registered in $GITNEXUS_HOME itself (or uses
// a running server given with -url) and prints a markdown report.
//
//	go run -tags sqlite_fts5 ./bench/webui -repo go [-runs 5] [-symbol UID] [-big UID]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/httpserver"
)

type options struct {
	base, repo, symbol, big, query, chromium string
	runs, bigLimit, bigDepth                 int
	pan                                      time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.base, "url", "", "a running gitnexus serve (default: serve $GITNEXUS_HOME's repositories on 127.0.0.1 here)")
	flag.StringVar(&o.repo, "repo", "", "the repository's id or name (default: the first registered)")
	flag.StringVar(&o.symbol, "symbol", "", "the symbol to open (default: the first result of -query)")
	flag.StringVar(&o.query, "query", "ReadFile", "the search that picks -symbol")
	flag.StringVar(&o.big, "big", "", "the symbol whose neighbourhood is panned (default: the function with the most callers)")
	flag.IntVar(&o.bigLimit, "big-limit", 5000, "nodes of the panned neighbourhood")
	flag.IntVar(&o.bigDepth, "big-depth", 3, "depth of the panned neighbourhood")
	flag.IntVar(&o.runs, "runs", 5, "runs of the first paint and of the symbol's graph")
	flag.DurationVar(&o.pan, "pan", 3*time.Second, "how long to drag the canvas")
	flag.StringVar(&o.chromium, "chromium", "/usr/bin/chromium", "the browser")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "webui bench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if _, err := exec.LookPath(o.chromium); err != nil {
		return fmt.Errorf("no browser at %s: apt-get install -y chromium, or give -chromium: %w", o.chromium, err)
	}
	if o.base == "" {
		base, stop, err := serve()
		if err != nil {
			return err
		}
		defer stop()
		o.base = base
	}
	if err := pickTargets(&o); err != nil {
		return err
	}
	slog.Info("measuring", "url", o.base, "repo", o.repo, "symbol", o.symbol, "big", o.big)

	profile, err := os.MkdirTemp("", "webui-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(o.chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.DisableGPU, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true), chromedp.WindowSize(1280, 900))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 10*time.Minute)
	defer cancelT()

	route := func(parts ...string) string {
		out := "#/r/" + url.PathEscape(o.repo)
		for _, p := range parts {
			out += "/" + url.PathEscape(p)
		}
		return out
	}

	// First paint of the search page, each run a fresh load.
	var fcp []float64
	for i := 0; i < o.runs; i++ {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(o.base+"/"+route("search"))); err != nil {
			return err
		}
		v, err := chromedp.Run(ctx, chromedp.Poll[float64](`(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime`,
			chromedp.WithPollingTimeout(30*time.Second)))
		if err != nil {
			return fmt.Errorf("first paint: %w", err)
		}
		fcp = append(fcp, v)
	}

	// Opening a symbol until its graph is drawn.
	var open []float64
	for i := 0; i < o.runs; i++ {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("location.hash = %q", route("search")))); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById('search-input') !== null`)); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("location.hash = %q", route("s", o.symbol)))); err != nil {
			return err
		}
		v, err := chromedp.Run(ctx, chromedp.Poll[float64](`(() => {
			const d = performance.getEntriesByName('graph-drawn')[0], s = performance.getEntriesByName('symbol-open')[0];
			return d && s ? Math.max(0.001, d.startTime - s.startTime) : 0; })()`, chromedp.WithPollingTimeout(60*time.Second)))
		if err != nil {
			return fmt.Errorf("symbol graph: %w", err)
		}
		open = append(open, v)
	}

	// Panning a big neighbourhood.
	bigHash := route("g", o.big) + fmt.Sprintf("?depth=%d&limit=%d&types=CALLS,IMPORTS,EXTENDS,IMPLEMENTS,HAS_METHOD,REFERENCES", o.bigDepth, o.bigLimit)
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("location.hash = %q", bigHash))); err != nil {
		return err
	}
	bigDraw, err := chromedp.Run(ctx, chromedp.Poll[float64](`(() => {
		const d = performance.getEntriesByName('graph-drawn')[0], s = performance.getEntriesByName('symbol-open')[0];
		return d && s && document.querySelector('.graph-canvas.big canvas') ? Math.max(0.001, d.startTime - s.startTime) : 0; })()`,
		chromedp.WithPollingTimeout(5*time.Minute)))
	if err != nil {
		return fmt.Errorf("big graph: %w", err)
	}
	nodes, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[+document.querySelector('.graph-canvas.big').dataset.nodes, +document.querySelector('.graph-canvas.big').dataset.edges]`))
	if err != nil {
		return err
	}
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('.graph-canvas.big').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
	if err != nil {
		return err
	}
	before, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.graph-canvas.big').dataset.camera || ''`))
	fps, err := panFPS(ctx, box, o.pan)
	if err != nil {
		return err
	}
	// The drag must have moved the camera once the button was released.
	after, err := chromedp.Run(ctx, chromedp.Poll[string](fmt.Sprintf(`(() => { const c = document.querySelector('.graph-canvas.big').dataset.camera || ''; return c !== %q ? c : ''; })()`, before),
		chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		return fmt.Errorf("the drag did not move the camera (%s): %w", before, err)
	}
	slog.Info("camera", "before", before, "after", after)

	fmt.Printf("## Web view, %s (%s)\n\n", o.repo, time.Now().UTC().Format("2006-01-02"))
	fmt.Printf("| measure | median | min | max | target |\n|---|---|---|---|---|\n")
	fmt.Printf("| first contentful paint of the search page (%d loads) | %.0f ms | %.0f ms | %.0f ms | < 1000 ms |\n", len(fcp), median(fcp), minOf(fcp), maxOf(fcp))
	fmt.Printf("| symbol opened → graph drawn (%d opens of %s) | %.0f ms | %.0f ms | %.0f ms | < 300 ms |\n", len(open), o.symbol, median(open), minOf(open), maxOf(open))
	fmt.Printf("| panning %d nodes, %d edges (%s drag) | %.1f fps | | | ≥ 30 fps |\n", nodes[0], nodes[1], o.pan, fps)
	fmt.Printf("\nThe %d-node neighbourhood of %s was drawn %.0f ms after it was opened (answer, layout and first frame).\n", nodes[0], o.big, bigDraw)
	return nil
}

// panFPS counts animation frames while the mouse drags the canvas in a
// circle, one move every 16 ms.
func panFPS(ctx context.Context, box []float64, d time.Duration) (float64, error) {
	cx, cy := box[0]+box[2]/2, box[1]+box[3]/2
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__frames = 0; window.__counting = true;
		(function tick() { if (!window.__counting) return; window.__frames++; requestAnimationFrame(tick); })();`)); err != nil {
		return 0, err
	}
	mouse := func(typ input.DispatchMouseEventType, x, y float64, buttons int64) error {
		p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: 1}
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, p)
		return err
	}
	if err := mouse(input.DispatchMouseEventTypeMouseMoved, cx, cy, 0); err != nil {
		return 0, err
	}
	if err := mouse(input.DispatchMouseEventTypeMousePressed, cx, cy, 1); err != nil {
		return 0, err
	}
	start := time.Now()
	startFrames, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__frames`))
	if err != nil {
		return 0, err
	}
	for i := 0; time.Since(start) < d; i++ {
		a := float64(i) / 30
		x, y := cx+box[2]/4*cos(a), cy+box[3]/4*sin(a)
		if err := mouse(input.DispatchMouseEventTypeMouseMoved, x, y, 1); err != nil {
			return 0, err
		}
		time.Sleep(16 * time.Millisecond)
	}
	frames, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__frames`))
	if err != nil {
		return 0, err
	}
	elapsed := time.Since(start)
	if err := mouse(input.DispatchMouseEventTypeMouseReleased, cx, cy, 0); err != nil {
		return 0, err
	}
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__counting = false`))
	return float64(frames-startFrames) / elapsed.Seconds(), nil
}

// serve serves the registered repositories on 127.0.0.1.
func serve() (string, func(), error) {
	b, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1})
	if err != nil {
		return "", nil, err
	}
	srv, err := httpserver.New(b, httpserver.Options{Addr: "127.0.0.1:0", RequestTimeout: 5 * time.Minute})
	if err != nil {
		b.Close()
		return "", nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Close()
		return "", nil, err
	}
	go srv.Serve(l)
	return "http://" + l.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		b.Close()
	}, nil
}

// pickTargets fills in the repository and the symbols from the server.
func pickTargets(o *options) error {
	if o.repo == "" {
		var repos struct {
			Repos []struct{ ID string } `json:"repos"`
		}
		if err := call("GET", o.base+"/api/v1/repos", nil, &repos); err != nil {
			return err
		}
		if len(repos.Repos) == 0 {
			return errors.New("no repository registered: run gitnexus analyze on one")
		}
		o.repo = repos.Repos[0].ID
	}
	if o.symbol == "" {
		var ans struct {
			Result struct {
				Results []struct{ UID string } `json:"results"`
			} `json:"result"`
		}
		if err := call("POST", o.base+"/api/v1/tools/query", map[string]any{"query": o.query, "limit": 1, "repo": o.repo}, &ans); err != nil {
			return err
		}
		if len(ans.Result.Results) == 0 {
			return fmt.Errorf("the search %q found nothing: give -symbol", o.query)
		}
		o.symbol = ans.Result.Results[0].UID
	}
	if o.big == "" {
		var ans struct {
			Rows [][]any `json:"rows"`
		}
		q := "MATCH (c)-[:CALLS]->(f:Function) RETURN f.id AS id, count(c) AS n ORDER BY n DESC LIMIT 1"
		if err := call("POST", o.base+"/api/v1/cypher", map[string]any{"query": q, "repo": o.repo}, &ans); err != nil {
			return err
		}
		if len(ans.Rows) == 0 || len(ans.Rows[0]) == 0 {
			return errors.New("no function has callers: give -big")
		}
		o.big = fmt.Sprint(ans.Rows[0][0])
	}
	return nil
}

func call(method, u string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != 200 {
		return fmt.Errorf("%s %s: %d %s", method, u, res.StatusCode, strings.TrimSpace(string(b)))
	}
	return json.Unmarshal(b, out)
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func minOf(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[0]
}

func maxOf(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)-1]
}

func cos(a float64) float64 { return math.Cos(a) }
func sin(a float64) float64 { return math.Sin(a) }
