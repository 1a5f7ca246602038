package backend

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// Fixture repositories: real files, committed with real git, indexed by the
// real pipeline and registered in a registry of the test's own.

// shopFiles is testrepo.Shop: a store, an order service, a cache with a
// homonym Get, a command and a test.
var shopFiles = testrepo.Shop

func newHome(t *testing.T) string { return testrepo.Home(t) }

func writeRepo(t *testing.T, dir string, files map[string]string) string {
	return testrepo.New(t, dir, files)
}

func git(t *testing.T, dir string, args ...string) string { return testrepo.Git(t, dir, args...) }

func index(t *testing.T, root string) registry.Entry { return testrepo.Index(t, root) }

// newBackend starts a backend that stops with the test. Without a Cwd it
// runs in a directory of its own: the test's (this repository's work
// tree, not indexed) would refuse calls without a repo.
func newBackend(t *testing.T, opts Options) *Backend {
	t.Helper()
	if opts.Cwd == "" && !opts.IgnoreCwd {
		opts.Cwd = t.TempDir()
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}
