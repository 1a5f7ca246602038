package analysis

import (
	"slices"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"order", "order", 0}, {"ordr", "order", 1},
		{"kitten", "sitting", 3}, {"store", "stores", 1}, {"abc", "cba", 2},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestCloseNames(t *testing.T) {
	names := []string{"example.com/shop/order", "example.com/shop/store", "order", "store", "internal/orders",
		"cmd/shop", "example.com/shop/cmd/shop", "shop.orders", "web/src/components"}
	for _, c := range []struct {
		want  string
		limit int
		out   []string
	}{
		// Containing it, by the distance of the trailing segments, then
		// of the whole name.
		{"order", 10, []string{"order", "example.com/shop/order", "shop.orders", "internal/orders"}},
		// A typo in the last segment: the trailing segments are compared.
		{"shop/ordr", 10, []string{"example.com/shop/order"}},
		{"Store", 10, []string{"store", "example.com/shop/store"}},
		// The same last segment, far otherwise.
		{"other/tree/components", 10, []string{"web/src/components"}},
		{"order", 2, []string{"order", "example.com/shop/order"}},
		{"zzzzzz", 10, []string{}},
	} {
		if got := closeNames(c.want, names, c.limit); !slices.Equal(got, c.out) {
			t.Errorf("closeNames(%q) = %q, want %q", c.want, got, c.out)
		}
	}
}
