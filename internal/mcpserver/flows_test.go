package mcpserver

import "testing"

func TestItemInURI(t *testing.T) {
	cases := []struct {
		uri, segment, repo, item string
		ok                       bool
	}{
		{"gitnexus://repo/shop/process/main%20%E2%86%92%20run", "/process/", "shop", "main → run", true},
		{"gitnexus://repo/shop/cluster/http%20(cookie)", "/cluster/", "shop", "http (cookie)", true},
		{"gitnexus://repo/shop/cluster/", "/cluster/", "", "", false},
		{"gitnexus://repo//cluster/x", "/cluster/", "", "", false},
		{"gitnexus://repo/a/b/cluster/x", "/cluster/", "", "", false},
		{"gitnexus://repo/shop/cluster/%zz", "/cluster/", "", "", false},
		{"other://repo/shop/cluster/x", "/cluster/", "", "", false},
	}
	for _, c := range cases {
		repo, item, ok := itemInURI(c.uri, c.segment)
		if repo != c.repo || item != c.item || ok != c.ok {
			t.Errorf("itemInURI(%q) = %q, %q, %v; want %q, %q, %v", c.uri, repo, item, ok, c.repo, c.item, c.ok)
		}
	}
}
