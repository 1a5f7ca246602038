package cypher_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"gitnexus.dev/gitnexus/internal/cypher"
)

func TestMarkdownForAgents(t *testing.T) {
	f := loadFixture(t, "shop")
	res, err := f.engine.Query(context.Background(),
		"MATCH (m:Method {name: 'Place'})-[r:CALLS]->(t) RETURN t.name AS `callee|name`, r.confidence, t, null AS nothing, '' AS empty, 'a\nb' AS lines ORDER BY r.confidence DESC",
		cypher.Options{MaxRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "| callee\\|name | r.confidence | t | nothing | empty | lines |\n" +
		"|---|---|---|---|---|---|\n" +
		"| record | 0.95 | (Function:order/order.go:record) | null |  | a<br>b |\n" +
		"| Charge | 0.9 | (Method:payment/payment.go:Charger.Charge) | null |  | a<br>b |\n" +
		"\nTruncated: only the first 2 rows are shown. Add LIMIT, aggregate (count, collect), or narrow the MATCH to see the rest.\n"
	out := res.ForAgent()
	if out.Markdown != want || out.RowCount != 2 || !out.Truncated {
		t.Errorf("markdown:\n%s\nwant\n%s\nrow_count %d", out.Markdown, want, out.RowCount)
	}
	b, _ := json.Marshal(out)
	if !strings.Contains(string(b), `"row_count":2`) || !strings.Contains(string(b), `"markdown":"| callee`) {
		t.Errorf("agent JSON: %s", b)
	}

	res, err = f.engine.Query(context.Background(), "MATCH (n:Enum) RETURN n.nme", cypher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if md := res.Markdown(); !strings.Contains(md, "| n.nme |\n|---|\n\n(no rows)\n") || !strings.Contains(md, "Warning: n.nme: nodes have no property `nme`") {
		t.Errorf("empty result:\n%s", md)
	}
}

func TestJSONRows(t *testing.T) {
	f := loadFixture(t, "shop")
	res, err := f.engine.Query(context.Background(),
		"MATCH p = (a:Function {name: 'main'})-[r:CALLS]->(b:Method) RETURN a, r, p, [1, 2.5, 'x', true, null] AS l, {k: 0.0 / 0.0} AS m", cypher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.JSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`"a":{"endLine":8,"filePath":"cmd/shop/main.go","id":"Function:cmd/shop/main.go:main","isExported":false,"label":"Function","language":"go","name":"main","qualifiedName":"main.main","signature":"func main()","startLine":5}`,
		`"r":{"confidence":0.9,"end":"Method:order/order.go:Service.Place","line":7,"reason":"receiver-typed","start":"Function:cmd/shop/main.go:main","type":"CALLS"}`,
		`"p":{"nodes":[{`, `"relationships":[{"confidence":0.9`,
		`"l":[1,2.5,"x",true,null]`, `"m":{"k":"NaN"}`,
		`"columns":["a","r","p","l","m"]`, `"row_count":1`, `"truncated":false`,
	} {
		if !strings.Contains(string(b), w) {
			t.Errorf("JSON lacks %s:\n%s", w, b)
		}
	}
}

// TestConcurrentQueries runs the conformance queries of one scenario from
// several goroutines on one engine: each gets the answer it gets alone.
func TestConcurrentQueries(t *testing.T) {
	s, err := parseScenario("testdata/conformance/match-relationships.txt")
	if err != nil {
		t.Fatal(err)
	}
	f := loadFixture(t, s.graph)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range s.cases {
				if got := runCase(t, f, c); got != c.want {
					t.Errorf("%s: concurrent run differs:\n%s", c.title, got)
				}
			}
		}()
	}
	wg.Wait()
}
