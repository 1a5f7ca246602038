package browsertest

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"gitnexus.dev/gitnexus/internal/httpserver"
)

// hashOf is the page's route to a view, as the page's own links build it.
func hashOf(parts ...string) string {
	out := "#/r/shop"
	for _, p := range parts {
		out += "/" + url.PathEscape(p)
	}
	return strings.ReplaceAll(out, ":", "%3A")
}

// TestWebView walks every view of the page in a desktop window: search,
// a symbol, its graph, the Cypher console, a process, a commit, the
// history; then the same views on a phone-sized screen.
func TestWebView(t *testing.T) {
	chromiumPath(t)
	f := startFixture(t, httpserver.Options{})
	p := newPage(t, f.base)

	t.Run("search", func(t *testing.T) {
		p.t = t
		p.open("/")
		// One repository: the page goes straight to its search.
		p.wait("the search box", `document.activeElement && document.activeElement.id === 'search-input'`)
		p.do("type", chromedp.SendKeys(chromedp.CSS("#search-input"), "store get"))
		p.wait("results", `document.querySelectorAll('#search-results li').length > 0`)
		if got := p.text("#search-results"); !strings.Contains(got, "Get") || !strings.Contains(got, "store/store.go") {
			t.Errorf("results lack Store.Get: %q", got)
		}
		p.screenshot("search")
	})

	t.Run("symbol", func(t *testing.T) {
		p.t = t
		p.do("open Store.Get", chromedp.Click(chromedp.CSS(`#search-results li[data-uid="Method:store/store.go:Store.Get"] a`)))
		p.wait("the signature", `document.querySelector('.signature') !== null`)
		if got := p.text(".signature"); got != "func (s *Store) Get(id int) (*Item, error)" {
			t.Errorf("signature %q", got)
		}
		p.wait("the callers", `document.querySelector('#callers a') !== null`)
		if got := p.text("#callers"); !strings.Contains(got, "Place") {
			t.Errorf("callers %q lack Place", got)
		}
		if got := p.text("#source"); !strings.Contains(got, "it, ok := s.items[id]") || !strings.Contains(got, "ErrMissing") {
			t.Errorf("source %q", got)
		}
		if n := eval[int](p, `document.querySelectorAll('#source .tok-kw').length`); n == 0 {
			t.Errorf("the source is not highlighted")
		}
		p.wait("the impact", `document.querySelector('#impact .risk') !== null`)
		if got := p.text("#impact"); !strings.Contains(got, "Risk LOW") {
			t.Errorf("impact %q", got)
		}
		p.wait("the processes", `document.querySelector('#processes a') !== null`)
		if got := p.text("#processes"); !strings.Contains(got, "step 3 of 3") {
			t.Errorf("processes %q", got)
		}
		p.wait("the history", `document.querySelectorAll('#history .commit-list li').length >= 2`)
		if got := p.text("#history"); !strings.Contains(got, "store: count gets") {
			t.Errorf("history %q", got)
		}
		p.screenshot("symbol")
	})

	t.Run("graph", func(t *testing.T) {
		p.t = t
		p.wait("the graph", `+(document.querySelector('#graph .graph-canvas') || {dataset: {}}).dataset.nodes > 0`)
		if eval[bool](p, `document.querySelector('#graph canvas') === null`) {
			t.Fatal("no canvas: WebGL did not start")
		}
		before := eval[int](p, `+document.querySelector('#graph .graph-canvas').dataset.nodes`)
		if !eval[bool](p, `performance.getEntriesByName('graph-drawn').length > 0`) {
			t.Error("no graph-drawn mark")
		}
		// Expand Place, the caller, through the list of nodes.
		p.do("open the list", chromedp.Click(chromedp.CSS("#graph details summary")))
		p.do("expand Place", chromedp.Click(chromedp.Search(`//ul[@class="node-list"]/li[a[text()="Place"]]/button`)))
		p.wait("more nodes", fmt.Sprintf(`+document.querySelector('#graph .graph-canvas').dataset.nodes > %d`, before))
		p.screenshot("graph")
		// In the full-size graph, a click on the canvas at Place expands it.
		p.route(hashOf("g", "Method:store/store.go:Store.Get"))
		p.wait("the full-size graph", `+(document.querySelector('.graph-canvas.big') || {dataset: {}}).dataset.nodes === 2`)
		xy := eval[[]float64](p, `(() => { const el = document.querySelector('.graph-canvas.big'), r = el.getBoundingClientRect();
			const v = el.graphCanvas.viewportOf('Method:order/order.go:Service.Place'); return [r.left + v.x, r.top + v.y]; })()`)
		p.do("click Place", chromedp.MouseClickXY(xy[0], xy[1]))
		p.wait("Place's neighbours", `+document.querySelector('.graph-canvas.big').dataset.nodes > 2`)
		if got := p.text(".graph-selection"); !strings.Contains(got, "Place") {
			t.Errorf("selection %q", got)
		}
		p.screenshot("graph-full")
		if got := p.text(".node-list"); !strings.Contains(got, "TestPlace") {
			t.Errorf("Place's callers lack its test: %q", got)
		}
		// The controls: depth 2 without tests keeps main and drops TestPlace.
		p.do("hide tests", chromedp.Click(chromedp.CSS(".graph-controls input[id$='-tests']")))
		p.do("depth 2", chromedp.SetValue(chromedp.CSS(".graph-controls select"), "2"),
			chromedp.Evaluate[chromedp.Void](`document.querySelector('.graph-controls select').dispatchEvent(new Event('change', {bubbles: true}))`))
		p.wait("the graph without tests", `location.hash.includes('hideTests=1') && location.hash.includes('depth=2') && document.querySelector('.graph-status').textContent.includes('nodes')`)
		if got := p.text(".node-list"); !strings.Contains(got, "main") || strings.Contains(got, "TestPlace") {
			t.Errorf("depth 2 without tests: %q", got)
		}
	})

	t.Run("cypher", func(t *testing.T) {
		p.t = t
		p.route(hashOf("cypher"))
		p.wait("the console", `document.activeElement && document.activeElement.id === 'cypher-query'`)
		p.do("query", chromedp.Evaluate[chromedp.Void](`document.getElementById('cypher-query').value = ''`),
			chromedp.SendKeys(chromedp.CSS("#cypher-query"), "MATCH (a)-[:CALLS]->(b:Method) WHERE b.name = 'Get' RETURN a.name AS caller, b.filePath AS file ORDER BY caller"))
		p.key(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))
		p.wait("the table", `document.querySelectorAll('.cypher-table tbody tr').length > 0`)
		head := p.text(".cypher-table thead")
		body := p.text(".cypher-table tbody")
		if head != "callerfile" || !strings.Contains(body, "Place") || !strings.Contains(body, "Warm") {
			t.Errorf("table: head %q, body %q", head, body)
		}
		// An answer with nodes is drawn too.
		p.do("graph query", chromedp.Evaluate[chromedp.Void](`document.getElementById('cypher-query').value = "MATCH (a)-[r:CALLS]->(b) RETURN a, r, b"`),
			chromedp.Click(chromedp.CSS("#cypher-run")))
		p.wait("the answer's graph", `+(document.querySelector('article .graph-canvas:not([hidden])') || {dataset: {}}).dataset.nodes > 2`)
		p.screenshot("cypher")
	})

	t.Run("process", func(t *testing.T) {
		p.t = t
		p.route(hashOf("processes"))
		p.wait("the processes", `document.querySelector('table.data tbody a') !== null`)
		p.screenshot("processes")
		p.do("open", chromedp.Click(chromedp.CSS("table.data tbody a")))
		p.wait("the flow", `document.querySelectorAll('.flow-node').length >= 2`)
		flow := p.text(".flow")
		if !strings.Contains(flow, "Step 1") || !strings.Contains(flow, "main") || !strings.Contains(flow, "Get") {
			t.Errorf("flow %q", flow)
		}
		p.screenshot("process")
	})

	t.Run("communities", func(t *testing.T) {
		p.t = t
		p.route(hashOf("communities"))
		p.wait("the map", `+(document.querySelector('.graph-canvas') || {dataset: {}}).dataset.nodes > 0`)
		p.screenshot("communities")
		p.do("open one", chromedp.Click(chromedp.CSS("table.data tbody a")))
		p.wait("its symbols", `document.querySelectorAll('#community-symbols li').length > 0`)
		p.screenshot("community")
	})

	t.Run("commit", func(t *testing.T) {
		p.t = t
		count := f.hashes[4] // "store: count gets"
		p.route(hashOf("commit", count))
		p.wait("the commit", `document.querySelector('#commit-impact') !== null`)
		if got := p.text(".commit-subject"); got != "store: count gets" {
			t.Errorf("subject %q", got)
		}
		if got := p.text("#commit-symbols"); !strings.Contains(got, "Get") {
			t.Errorf("symbols %q", got)
		}
		if got := p.text("#commit-impact"); !strings.Contains(got, "Place") {
			t.Errorf("depends on it now: %q", got)
		}
		p.screenshot("commit")
		// The symbol's source at that commit, compared with now.
		p.do("source then", chromedp.Click(chromedp.Search(`//section[@id="commit-symbols"]//li[a[text()="Get"]]/a[text()="source then"]`)))
		p.wait("the diff", `document.querySelector('.diff') !== null`)
		if got := p.text(".diff"); !strings.Contains(got, "gets++") {
			t.Errorf("diff %q", got)
		}
		p.screenshot("symbol-at-commit")
	})

	t.Run("markup is text", func(t *testing.T) {
		p.t = t
		p.route(hashOf("commit", f.hashes[0]))
		p.wait("the commit", `document.querySelector('#commit-files li') !== null`)
		if got := p.text(".commit-subject"); got != markupMessage {
			t.Errorf("subject %q, want %q", got, markupMessage)
		}
		if got := p.text("#commit-files"); !strings.Contains(got, markupFile) {
			t.Errorf("files %q lack %q", got, markupFile)
		}
		p.route(hashOf("file", markupFile))
		p.wait("the file's history", `document.querySelector('.commit-list li') !== null`)
		if got := p.text(".commit-list"); !strings.Contains(got, markupMessage) {
			t.Errorf("file history %q", got)
		}
		p.route(hashOf("history"))
		p.wait("the hot spots", `document.querySelector('#hotspots table') !== null`)
		if got := p.text("#hotspots"); !strings.Contains(got, markupFile) {
			t.Errorf("hot spots %q", got)
		}
		if eval[bool](p, `window.__pwned !== undefined || document.querySelector('main img, main script') !== null`) {
			t.Error("the markup ran or became elements")
		}
		p.screenshot("markup")
	})

	t.Run("history", func(t *testing.T) {
		p.t = t
		p.route(hashOf("history"))
		p.wait("the timeline", `document.querySelectorAll('#timeline rect.bar').length > 0`)
		p.do("window", chromedp.SetValue(chromedp.CSS("#hot-since"), "2024-01-02"), chromedp.SetValue(chromedp.CSS("#hot-until"), "2024-01-03"),
			chromedp.Click(chromedp.CSS("#hotspots button")))
		p.wait("the window's hot spots", `location.hash.includes('since=2024-01-02') && document.querySelector('#hotspots table') !== null`)
		if got := p.text("#hotspots"); !strings.Contains(got, "store/store.go") || strings.Contains(got, markupFile) {
			t.Errorf("hot spots of 2024-01-02..03: %q", got)
		}
		p.screenshot("history")
		// A week's bar opens that week's hot spots.
		p.do("a week", chromedp.Click(chromedp.CSS("#timeline a.week")))
		p.wait("the week's hot spots", `location.hash.includes('since=2024-01-01') && document.getElementById('hot-since').value === '2024-01-01' && document.querySelector('#hotspots table') !== null`)
		if got := p.text("#hotspots"); !strings.Contains(got, "cache/memo.go") {
			t.Errorf("hot spots of the first week: %q", got)
		}
		p.route(hashOf("file", "cache/memo.go"))
		p.wait("the file's commits", `document.querySelectorAll('.commit-list li').length >= 2`)
		if got := p.text("main"); !strings.Contains(got, "cache/cache.go") {
			t.Errorf("the file's history does not follow the rename: %q", got)
		}
		p.screenshot("file")
	})

	t.Run("phone", func(t *testing.T) {
		p.t = t
		p.do("phone", chromedp.EmulateViewport(375, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
		views := []struct{ name, hash, ready string }{
			{"search", hashOf("search") + "?q=place", `document.querySelectorAll('#search-results li').length > 0`},
			{"symbol", hashOf("s", "Method:order/order.go:Service.Place"), `document.querySelector('#callees a') !== null && document.querySelector('#history .commit-list') !== null`},
			{"graph", hashOf("g", "Method:store/store.go:Store.Get"), `+(document.querySelector('.graph-canvas') || {dataset: {}}).dataset.nodes > 0`},
			{"cypher", hashOf("cypher"), `document.getElementById('cypher-query') !== null`},
			{"communities", hashOf("communities"), `+(document.querySelector('.graph-canvas') || {dataset: {}}).dataset.nodes > 0 && document.querySelector('table.data') !== null`},
			{"process", hashOf("processes"), `document.querySelector('table.data') !== null`},
			{"commit", hashOf("commit", f.hashes[0]), `document.querySelector('#commit-impact') !== null`},
			{"history", hashOf("history"), `document.querySelector('#timeline svg') !== null && document.querySelector('#hotspots table') !== null`},
		}
		for _, v := range views {
			p.route(v.hash)
			p.wait(v.name, v.ready)
			if w := eval[[]int](p, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
				t.Errorf("%s: %d px wide on a %d px screen", v.name, w[0], w[1])
			}
			p.screenshot("phone-" + v.name)
		}
		p.do("desktop", chromedp.EmulateReset())
	})
}

// TestKeyboard goes from the page to a callee's page with the keyboard
// alone: skip link, "/" to search, arrows and Enter, Tab to a link.
func TestKeyboard(t *testing.T) {
	chromiumPath(t)
	f := startFixture(t, httpserver.Options{})
	p := newPage(t, f.base)
	// A view without a field to focus: the first Tab reaches the skip link.
	p.open("/" + hashOf("history"))
	p.wait("the history", `document.querySelector('#timeline svg') !== null`)
	p.key(kb.Tab)
	p.wait("the skip link", `document.activeElement && document.activeElement.classList.contains('skip-link')`)
	if eval[string](p, `getComputedStyle(document.activeElement).outlineStyle`) == "none" {
		t.Error("the focused skip link has no outline")
	}
	p.key(kb.Enter)
	p.wait("main", `document.activeElement && document.activeElement.id === 'main'`)
	// "/" opens the search with its box focused.
	p.key("/")
	p.wait("the search box", `document.activeElement && document.activeElement.id === 'search-input'`)
	p.key("place")
	p.wait("results", `document.querySelectorAll('#search-results li').length > 0`)
	p.key(kb.ArrowDown)
	p.wait("a chosen result", `document.querySelector('#search-results li[aria-selected="true"]') !== null`)
	first := eval[string](p, `document.querySelector('#search-results li[aria-selected="true"]').dataset.uid`)
	p.key(kb.Enter)
	p.wait("the symbol page", fmt.Sprintf(`decodeURIComponent(location.hash).includes(%q) && document.querySelector('.signature') !== null`, first))
	if first != "Method:order/order.go:Service.Place" {
		t.Fatalf("the first result is %s, want Service.Place", first)
	}
	p.wait("the callees", `document.querySelector('#callees a') !== null`)
	// Tab to the callee Get, then Enter.
	for i := 0; i < 80; i++ {
		if eval[bool](p, `!!document.activeElement.closest('#callees') && document.activeElement.textContent === 'Get'`) {
			break
		}
		p.key(kb.Tab)
	}
	if !eval[bool](p, `!!document.activeElement.closest('#callees')`) {
		t.Fatalf("80 tabs did not reach the callees; focus is on %q", eval[string](p, `document.activeElement.outerHTML.slice(0, 200)`))
	}
	p.key(kb.Enter)
	p.wait("Store.Get's page", `document.querySelector('.signature') !== null && document.querySelector('.signature').textContent.includes('(s *Store) Get')`)
	p.screenshot("keyboard")
}

// TestTokenCookie opens the page of a server with a token as
// /?token=T: the page then works with the cookie it was given.
func TestTokenCookie(t *testing.T) {
	chromiumPath(t)
	f := startFixture(t, httpserver.Options{Token: "s3cret-token"})
	p := newPage(t, f.base)
	p.open("/?token=s3cret-token")
	p.wait("the search box", `document.getElementById('search-input') !== null`)
	if eval[string](p, `location.search`) != "" {
		t.Error("the token stayed in the address")
	}
	p.do("type", chromedp.SendKeys(chromedp.CSS("#search-input"), "warm"))
	p.wait("results", `document.querySelectorAll('#search-results li').length > 0`)
}
