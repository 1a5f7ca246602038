package httpserver

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/backend"
)

// view is the part of a graph answer the tests compare: node ids in
// order, edges as "src -TYPE-> dst" in order, and the cut.
type view struct {
	nodes, edges []string
	truncated    bool
}

func viewOf(t *testing.T, body string) view {
	t.Helper()
	var ans struct {
		Nodes []struct {
			ID string `json:"id"`
		} `json:"nodes"`
		Edges []struct {
			Src, Dst, Type string
		} `json:"edges"`
		Truncated bool `json:"truncated"`
	}
	if err := json.Unmarshal([]byte(body), &ans); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	v := view{nodes: []string{}, edges: []string{}, truncated: ans.Truncated}
	for _, n := range ans.Nodes {
		v.nodes = append(v.nodes, n.ID)
	}
	for _, e := range ans.Edges {
		v.edges = append(v.edges, e.Src+" -"+e.Type+"-> "+e.Dst)
	}
	return v
}

// The shop's ids, shortened.
const (
	idGet        = "Method:store/store.go:Store.Get"
	idPut        = "Method:store/store.go:Store.Put"
	idNew        = "Function:store/store.go:New"
	idStore      = "Struct:store/store.go:Store"
	idErrMissing = "Variable:store/store.go:ErrMissing"
	idStoreFile  = "File:store/store.go"
	idPlace      = "Method:order/order.go:Service.Place"
	idNewService = "Function:order/order.go:NewService"
	idOrderFile  = "File:order/order.go"
	idTestPlace  = "Function:order/order_test.go:TestPlace"
	idMain       = "Function:cmd/shop/main.go:main"
	idWarm       = "Function:cache/memo.go:Warm"
)

// TestGraphViews checks the nodes and edges of the graph endpoints on the
// shop.
func TestGraphViews(t *testing.T) {
	base, _, _ := startHistory(t, Options{})
	q := url.QueryEscape
	cases := []struct {
		name, path string
		want       view
	}{
		{"neighbourhood", "/api/v1/graph/neighbourhood?uid=" + idGet, view{
			nodes: []string{idStoreFile, idPlace, idGet, idStore, idErrMissing},
			edges: []string{idStoreFile + " -DEFINES-> " + idGet, idStoreFile + " -DEFINES-> " + idStore, idStoreFile + " -DEFINES-> " + idErrMissing,
				idPlace + " -CALLS-> " + idGet, idGet + " -REFERENCES-> " + idErrMissing, idStore + " -HAS_METHOD-> " + idGet}}},
		{"neighbourhood of confident edges", "/api/v1/graph/neighbourhood?uid=" + idGet + "&minConfidence=0.95", view{
			nodes: []string{idStoreFile, idGet, idStore, idErrMissing},
			edges: []string{idStoreFile + " -DEFINES-> " + idGet, idStoreFile + " -DEFINES-> " + idStore, idStoreFile + " -DEFINES-> " + idErrMissing,
				idGet + " -REFERENCES-> " + idErrMissing, idStore + " -HAS_METHOD-> " + idGet}}},
		// A cut level keeps its caller over the file that defines it.
		{"neighbourhood cut by the limit", "/api/v1/graph/neighbourhood?uid=" + idGet + "&limit=2", view{
			nodes: []string{idPlace, idGet}, edges: []string{idPlace + " -CALLS-> " + idGet}, truncated: true}},
		// Of level 2, New, NewService and Put are called by both main and
		// TestPlace, Warm by main alone: Warm goes first although its id
		// sorts first; of the three, the two whose ids sort first stay.
		{"neighbourhood cut at depth 2", "/api/v1/graph/neighbourhood?uid=" + idPlace + "&depth=2&types=calls&limit=6", view{
			nodes: []string{idMain, idNewService, idTestPlace, idNew, idPlace, idGet},
			edges: []string{idMain + " -CALLS-> " + idNewService, idMain + " -CALLS-> " + idNew, idMain + " -CALLS-> " + idPlace,
				idTestPlace + " -CALLS-> " + idNewService, idTestPlace + " -CALLS-> " + idNew, idTestPlace + " -CALLS-> " + idPlace,
				idPlace + " -CALLS-> " + idGet}, truncated: true}},
		{"neighbourhood of calls, depth 2", "/api/v1/graph/neighbourhood?uid=" + idPlace + "&depth=2&types=calls", view{
			nodes: []string{idWarm, idMain, idNewService, idTestPlace, idNew, idPlace, idGet, idPut},
			edges: []string{idMain + " -CALLS-> " + idWarm, idMain + " -CALLS-> " + idNewService, idMain + " -CALLS-> " + idNew,
				idMain + " -CALLS-> " + idPlace, idMain + " -CALLS-> " + idPut, idTestPlace + " -CALLS-> " + idNewService,
				idTestPlace + " -CALLS-> " + idNew, idTestPlace + " -CALLS-> " + idPlace, idTestPlace + " -CALLS-> " + idPut,
				idPlace + " -CALLS-> " + idGet}}},
		{"neighbourhood with tests", "/api/v1/graph/neighbourhood?uid=" + idNewService, view{
			nodes: []string{idOrderFile, idMain, idNewService, idTestPlace},
			edges: []string{idOrderFile + " -DEFINES-> " + idNewService, idMain + " -CALLS-> " + idNewService, idTestPlace + " -CALLS-> " + idNewService}}},
		{"neighbourhood without tests", "/api/v1/graph/neighbourhood?uid=" + idNewService + "&hideTests=true", view{
			nodes: []string{idOrderFile, idMain, idNewService},
			edges: []string{idOrderFile + " -DEFINES-> " + idNewService, idMain + " -CALLS-> " + idNewService}}},
		{"community", "/api/v1/graph/community?id=" + q("Community:order + store"), view{
			nodes: []string{idPlace, idGet}, edges: []string{idPlace + " -CALLS-> " + idGet}}},
		{"community by label", "/api/v1/graph/community?id=store", view{
			nodes: []string{idMain, idNewService, idNew, idPut},
			edges: []string{idMain + " -CALLS-> " + idNewService, idMain + " -CALLS-> " + idNew, idMain + " -CALLS-> " + idPut}}},
		{"community cut by the limit", "/api/v1/graph/community?id=store&limit=2", view{
			nodes: []string{idMain, idNewService}, edges: []string{idMain + " -CALLS-> " + idNewService}, truncated: true}},
		{"process", "/api/v1/graph/process?id=" + q("Process:"+idMain+" > "+idGet), view{
			nodes: []string{}, edges: []string{idMain + " -CALLS-> " + idPlace, idPlace + " -CALLS-> " + idGet}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, "GET", base+c.path, "", nil)
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if got := viewOf(t, r.body); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got\n%#v\nwant\n%#v", got, c.want)
			}
		})
	}
}

// TestGraphAnswers checks whole answers, field by field.
func TestGraphAnswers(t *testing.T) {
	base, _, _ := startHistory(t, Options{})
	cases := []struct {
		name, method, path, body string
		want                     string // the answer, exactly
	}{
		{"neighbourhood nodes", "GET", "/api/v1/graph/neighbourhood?uid=" + idNewService + "&types=CALLS", "",
			`{"repo":"shop","center":"Function:order/order.go:NewService","nodes":[` +
				`{"id":"Function:cmd/shop/main.go:main","name":"main","kind":"Function","filePath":"cmd/shop/main.go","startLine":11,"community":"Community:store","isTest":false},` +
				`{"id":"Function:order/order.go:NewService","name":"NewService","kind":"Function","filePath":"order/order.go","startLine":12,"community":"Community:store","isTest":false},` +
				`{"id":"Function:order/order_test.go:TestPlace","name":"TestPlace","kind":"Function","filePath":"order/order_test.go","startLine":9,"community":"","isTest":true}],"edges":[` +
				`{"src":"Function:cmd/shop/main.go:main","dst":"Function:order/order.go:NewService","type":"CALLS","confidence":0.95},` +
				`{"src":"Function:order/order_test.go:TestPlace","dst":"Function:order/order.go:NewService","type":"CALLS","confidence":0.95}],"truncated":false}`},
		{"communities", "GET", "/api/v1/graph/communities", "",
			`{"repo":"shop","communities":[{"id":"Community:store","label":"store","symbols":4,"files":3},` +
				`{"id":"Community:cache","label":"cache","symbols":2,"files":1},{"id":"Community:order + store","label":"order + store","symbols":2,"files":2}],` +
				`"links":[{"src":"Community:cache","dst":"Community:store","weight":1},{"src":"Community:order + store","dst":"Community:store","weight":1}],"truncated":false}`},
		{"communities cut", "GET", "/api/v1/graph/communities?limit=1", "",
			`{"repo":"shop","communities":[{"id":"Community:store","label":"store","symbols":4,"files":3}],"links":[],"truncated":true}`},
		{"processes", "GET", "/api/v1/graph/processes", "",
			`{"repo":"shop","processes":[` +
				`{"id":"Process:Function:cmd/shop/main.go:main \u003e Method:cache/memo.go:Cache.Get","label":"main → Cache.Get","steps":3,"entry":{"id":"Function:cmd/shop/main.go:main","name":"main"}},` +
				`{"id":"Process:Function:cmd/shop/main.go:main \u003e Method:store/store.go:Store.Get","label":"main → Store.Get","steps":3,"entry":{"id":"Function:cmd/shop/main.go:main","name":"main"}}],"truncated":false}`},
		{"processes cut", "GET", "/api/v1/graph/processes?limit=1", "",
			`{"repo":"shop","processes":[` +
				`{"id":"Process:Function:cmd/shop/main.go:main \u003e Method:cache/memo.go:Cache.Get","label":"main → Cache.Get","steps":3,"entry":{"id":"Function:cmd/shop/main.go:main","name":"main"}}],"truncated":true}`},
		{"process", "GET", "/api/v1/graph/process?repo=shop&id=" + url.QueryEscape("Process:"+idMain+" > "+idGet), "",
			`{"repo":"shop","id":"Process:Function:cmd/shop/main.go:main \u003e Method:store/store.go:Store.Get","label":"main → Store.Get","steps":[` +
				`{"step":1,"id":"Function:cmd/shop/main.go:main","name":"main","kind":"Function","filePath":"cmd/shop/main.go","startLine":11},` +
				`{"step":2,"id":"Method:order/order.go:Service.Place","name":"Place","kind":"Method","filePath":"order/order.go","startLine":17},` +
				`{"step":3,"id":"Method:store/store.go:Store.Get","name":"Get","kind":"Method","filePath":"store/store.go","startLine":26}],"edges":[` +
				`{"src":"Function:cmd/shop/main.go:main","dst":"Method:order/order.go:Service.Place","type":"CALLS"},` +
				`{"src":"Method:order/order.go:Service.Place","dst":"Method:store/store.go:Store.Get","type":"CALLS"}]}`},
		{"cypher path and list", "POST", "/api/v1/cypher", `{"query": "MATCH p=(a:Function {name: $n})-[:CALLS]->(b:Function) RETURN p, collect(b.name) AS names ORDER BY names LIMIT 1", "params": {"n": "main"}}`,
			`{"repo":"shop","columns":["p","names"],"rows":[[{"nodes":[` +
				`{"endLine":16,"filePath":"cmd/shop/main.go","id":"Function:cmd/shop/main.go:main","isExported":false,"label":"Function","language":"go","name":"main","qualifiedName":"main.main","signature":"func main()","startLine":11},` +
				`{"endLine":23,"filePath":"store/store.go","id":"Function:store/store.go:New","isExported":true,"label":"Function","language":"go","name":"New","qualifiedName":"store.New","signature":"func New() *Store","startLine":21}],` +
				`"relationships":[{"confidence":0.95,"end":"Function:store/store.go:New","line":12,"reason":"import-resolved","start":"Function:cmd/shop/main.go:main","type":"CALLS"}]},["New"]]],"truncated":false,` +
				`"graph":{"nodes":[{"id":"Function:cmd/shop/main.go:main","name":"main","kind":"Function","filePath":"cmd/shop/main.go","startLine":11},` +
				`{"id":"Function:store/store.go:New","name":"New","kind":"Function","filePath":"store/store.go","startLine":21}],` +
				`"edges":[{"src":"Function:cmd/shop/main.go:main","dst":"Function:store/store.go:New","type":"CALLS"}],"truncated":false}}`},
		{"cypher relationship ends", "POST", "/api/v1/cypher", `{"query": "MATCH (:Method {name: 'Place'})-[r:CALLS]->() RETURN r", "repo": "shop"}`,
			`{"repo":"shop","columns":["r"],"rows":[[{"confidence":0.9,"end":"Method:store/store.go:Store.Get","line":18,"reason":"receiver-typed","start":"Method:order/order.go:Service.Place","type":"CALLS"}]],"truncated":false,` +
				`"graph":{"nodes":[{"id":"Method:order/order.go:Service.Place","name":"Place","kind":"Method","filePath":"order/order.go","startLine":17},` +
				`{"id":"Method:store/store.go:Store.Get","name":"Get","kind":"Method","filePath":"store/store.go","startLine":26}],` +
				`"edges":[{"src":"Method:order/order.go:Service.Place","dst":"Method:store/store.go:Store.Get","type":"CALLS"}],"truncated":false}}`},
		{"cypher cut", "POST", "/api/v1/cypher", `{"query": "MATCH (f:Function) RETURN f.name AS name ORDER BY name", "limit": 2}`,
			`{"repo":"shop","columns":["name"],"rows":[["New"],["NewService"]],"truncated":true,"graph":{"nodes":[],"edges":[],"truncated":false}}`},
		{"timeline", "GET", "/api/v1/history/timeline", "",
			`{"repo":"shop","weeks":[{"week":"2024-01-01","commits":5,"filesChanged":10,"symbolsChanged":25}],"truncated":false}`},
		{"hotspots", "GET", "/api/v1/history/hotspots?limit=2", "",
			`{"repo":"shop","files":[{"path":"cache/memo.go","commits":3,"additions":22,"deletions":5},{"path":"store/store.go","commits":3,"additions":40,"deletions":3}],` +
				`"symbols":[{"id":"Method:store/store.go:Store.Get","name":"Get","kind":"Method","filePath":"store/store.go","commits":3},` +
				`{"id":"HistoricalSymbol:Function:cache/memo.go:Purge","name":"Purge","kind":"Function","filePath":"cache/memo.go","commits":2}],"truncated":true}`},
		{"hotspots of one day", "GET", "/api/v1/history/hotspots?since=2024-01-03&until=2024-01-03", "",
			`{"repo":"shop","files":[{"path":"cache/memo.go","commits":1,"additions":5,"deletions":0}],` +
				`"symbols":[{"id":"HistoricalSymbol:Function:cache/memo.go:Purge","name":"Purge","kind":"Function","filePath":"cache/memo.go","commits":1}],"truncated":false}`},
		{"hotspots of an empty window", "GET", "/api/v1/history/hotspots?since=2030-01-01", "",
			`{"repo":"shop","files":[],"symbols":[],"truncated":false}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, c.method, base+c.path, c.body, nil)
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if got := strings.TrimSuffix(r.body, "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestGraphErrors: bad parameters are 400 with a message naming them, an
// unknown repository or id 404, a wrong method 405.
func TestGraphErrors(t *testing.T) {
	base, _, _ := startHistory(t, Options{})
	n := "/api/v1/graph/neighbourhood?uid=" + idGet
	cases := []struct {
		name, method, path, body string
		status                   int
		want                     string // a part of the message
	}{
		{"no uid", "GET", "/api/v1/graph/neighbourhood", "", 400, `argument \"uid\": missing`},
		{"depth too deep", "GET", n + "&depth=4", "", 400, `argument \"depth\": 4 is out of range [1, 3]`},
		{"depth not a number", "GET", n + "&depth=two", "", 400, `\"two\" is not a whole number`},
		{"limit zero", "GET", n + "&limit=0", "", 400, `argument \"limit\": 0 is out of range [1, 20000]`},
		{"limit too high", "GET", n + "&limit=20001", "", 400, `out of range [1, 20000]`},
		{"unknown type", "GET", n + "&types=CALLS,FOO", "", 400, `\"FOO\" is not a code edge type`},
		{"not a code type", "GET", n + "&types=MEMBER_OF", "", 400, `\"MEMBER_OF\" is not a code edge type`},
		{"no types", "GET", n + "&types=,", "", 400, `argument \"types\": empty`},
		{"confidence above 1", "GET", n + "&minConfidence=1.5", "", 400, `argument \"minConfidence\"`},
		{"confidence not a number", "GET", n + "&minConfidence=NaN", "", 400, `argument \"minConfidence\"`},
		{"hideTests not a boolean", "GET", n + "&hideTests=maybe", "", 400, `want true or false`},
		{"unknown parameter", "GET", n + "&dpeth=2", "", 400, `argument \"dpeth\": unknown parameter; this endpoint takes repo, uid, depth`},
		{"repeated parameter", "GET", n + "&depth=1&depth=2", "", 400, `argument \"depth\": given more than once`},
		{"bad query string", "GET", n + "&depth=%zz", "", 400, `invalid URL escape`},
		{"community without id", "GET", "/api/v1/graph/community", "", 400, `argument \"id\": missing`},
		{"process without id", "GET", "/api/v1/graph/process", "", 400, `argument \"id\": missing`},
		{"communities limit", "GET", "/api/v1/graph/communities?limit=-1", "", 400, `out of range [1, 5000]`},
		{"cypher without query", "POST", "/api/v1/cypher", `{}`, 400, `argument \"query\"`},
		{"cypher unknown field", "POST", "/api/v1/cypher", `{"query": "RETURN 1", "rows": 3}`, 400, `unknown field \"rows\"`},
		{"cypher limit", "POST", "/api/v1/cypher", `{"query": "RETURN 1", "limit": 0}`, 400, `argument \"limit\": 0 is out of range [1, 5000]`},
		{"cypher syntax", "POST", "/api/v1/cypher", `{"query": "MATCH (n RETURN n"}`, 400, `syntax error`},
		{"cypher not JSON", "POST", "/api/v1/cypher", `MATCH`, 400, `bad request body`},
		{"hotspots date", "GET", "/api/v1/history/hotspots?since=yesterday", "", 400, `since: \"yesterday\" is not a date`},
		{"hotspots window", "GET", "/api/v1/history/hotspots?since=2024-02-01&until=2024-01-01", "", 400, `argument \"until\": 2024-01-01 is before since 2024-02-01`},
		{"hotspots limit", "GET", "/api/v1/history/hotspots?limit=1001", "", 400, `out of range [1, 1000]`},
		{"timeline branch", "GET", "/api/v1/history/timeline?branch=all", "", 400, `--all-branches`},
		{"unknown repo", "GET", n + "&repo=nope", "", 404, `Repository \"nope\" not found`},
		{"unknown repo, communities", "GET", "/api/v1/graph/communities?repo=nope", "", 404, `not found`},
		{"unknown repo, processes", "GET", "/api/v1/graph/processes?repo=nope", "", 404, `not found`},
		{"unknown repo, cypher", "POST", "/api/v1/cypher", `{"query": "RETURN 1", "repo": "nope"}`, 404, `not found`},
		{"unknown repo, timeline", "GET", "/api/v1/history/timeline?repo=nope", "", 404, `not found`},
		{"unknown node", "GET", "/api/v1/graph/neighbourhood?uid=Function:x.go:nope", "", 404, `no node has the id \"Function:x.go:nope\" in shop`},
		{"unknown community", "GET", "/api/v1/graph/community?id=nope", "", 404, `no community \"nope\" in shop`},
		{"a symbol is no community", "GET", "/api/v1/graph/community?id=" + idGet, "", 404, `no community`},
		{"unknown process", "GET", "/api/v1/graph/process?id=nope", "", 404, `no process \"nope\" in shop`},
		{"neighbourhood by POST", "POST", n, `{}`, 405, `use GET`},
		{"cypher by GET", "GET", "/api/v1/cypher", "", 405, `use POST`},
		{"unknown graph endpoint", "GET", "/api/v1/graph/nothing", "", 404, `no endpoint GET /api/v1/graph/nothing`},
		{"unknown api path", "GET", "/api/v2/repos", "", 404, `no endpoint GET /api/v2/repos`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, c.method, base+c.path, c.body, nil)
			if r.status != c.status || !strings.Contains(r.body, c.want) || !strings.HasPrefix(r.body, `{"error":`) {
				t.Errorf("%d %s, want %d with %s", r.status, strings.TrimSpace(r.body), c.status, c.want)
			}
		})
	}
}

// TestHistoryViewsNeedHistory: an index without history answers the
// timeline and hotspots 404 saying how to get one; the graph still works.
func TestHistoryViewsNeedHistory(t *testing.T) {
	base, _ := start(t, Options{}, backend.Options{})
	for _, p := range []string{"/api/v1/history/timeline", "/api/v1/history/hotspots"} {
		r := do(t, "GET", base+p, "", nil)
		if r.status != 404 || !strings.Contains(r.body, "has no git history: run `gitnexus analyze`") {
			t.Errorf("%s: %d %s", p, r.status, r.body)
		}
	}
	if r := do(t, "GET", base+"/api/v1/graph/communities", "", nil); r.status != 200 {
		t.Errorf("communities: %d %s", r.status, r.body)
	}
}
