package cli_test

import (
	"sort"
	"strings"
	"testing"
)

// TestShellCompletion: the shell completion of the tool commands offers
// symbol names from the index (qualified ones kept qualified), repository
// ids for --repo, and the values of enum flags.
func TestShellCompletion(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	complete := func(args ...string) []string {
		t.Helper()
		r := mustRun(t, home, root, append([]string{"__complete"}, args...)...)
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if !strings.HasPrefix(l, ":") {
				out = append(out, l)
			}
		}
		return out
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"context", "Pla"}, "Place"},
		{[]string{"impact", "va"}, "validate"},
		{[]string{"context", "Service.Pl"}, "Service.Place"},
		{[]string{"callers", "Cha"}, "Charge"},
		{[]string{"context", "--repo", ""}, "shop"},
		{[]string{"cypher", "--repo", ""}, "shop"},
		{[]string{"impact", "--direction", ""}, "downstream upstream"},
		{[]string{"detect-changes", "--scope", ""}, "all compare staged unstaged"},
	} {
		got := complete(c.args...)
		sort.Strings(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("completion of %q: %q, want %q", c.args, got, c.want)
		}
	}
	if got := complete("context", "Client.Pla"); len(got) != 0 {
		t.Errorf("Client has no Place, but completion offers %q", got)
	}
}
