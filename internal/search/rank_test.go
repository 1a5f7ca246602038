package search_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestRankingSignals: each signal of the ranking on a small repository of
// real Go code, a question and the order it must give.
func TestRankingSignals(t *testing.T) {
	testrepo.Home(t)
	root := testrepo.New(t, filepath.Join(t.TempDir(), "cfg"), map[string]string{
		"go.mod": "module example.com/cfg\n\ngo 1.22\n",
		"config/load.go": `package config

import "os"

// LoadConfigFile reads the settings file at path.
func LoadConfigFile(path string) ([]byte, error) { return os.ReadFile(path) }

// loadConfig reads the default settings.
func loadConfig() []byte {
	b, _ := LoadConfigFile("settings.ini")
	return b
}

// configFile names the settings file of a user.
func configFile(user string) string { return user + ".ini" }
`,
		"config/load_test.go": `package config

import "testing"

// TestLoadConfigFile reads a settings file.
func TestLoadConfigFile(t *testing.T) {
	if _, err := LoadConfigFile("testdata/settings.ini"); err == nil {
		t.Fatal("settings file read")
	}
}
`,
		"config/settings.go": `package config

import "os"

func ReadSettings(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}
`,
		"config/settings_test.go": `package config

import "testing"

func TestReadSettings(t *testing.T) {
	if ReadSettings("settings") == nil {
		t.Fatal("read settings failed: no settings read")
	}
}
`,
		"retry/retry.go": `package retry

// Attempt runs fetch until it succeeds.
func Attempt(fetch func() error) error {
	for w := 1; fetch() != nil; w = backoff(w) {
	}
	return nil
}

func limit(w int) int { return w % 9 /* fetch again later */ }
`,
		"retry/backoff.go": `package retry

func backoff(w int) int { return w * 2 /* fetch again later */ }
`,
		"jitter/jitter.go": `package jitter

func spread(w int) int { return w + 1 /* fetch */ }
`,
		"parse/parser.go": `package parse

// Parser reads tokens.
type Parser struct{ pos int }

// Next moves the parser on.
func (p *Parser) Next() { p.pos++ }
`,
	})
	testrepo.Index(t, root)
	r, g := testrepo.Load(t, root)
	rank := func(q string) []string {
		t.Helper()
		res, err := search.Symbols(context.Background(), r, g, nil, q, 50)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			if g.Nodes[h.Node].Kind.IsSymbol() {
				out = append(out, g.Nodes[h.Node].Name)
			}
		}
		return out
	}
	before := func(list []string, a, b string) bool {
		i, j := slices.Index(list, a), slices.Index(list, b)
		return i >= 0 && (j < 0 || i < j)
	}
	cases := []struct {
		signal, question, first, second string
	}{
		// The identifier named in the question, whole, beats the ones that
		// share its words.
		{"whole identifier", "fix LoadConfigFile on a missing file", "LoadConfigFile", "loadConfig"},
		{"whole identifier", "fix LoadConfigFile on a missing file", "LoadConfigFile", "configFile"},
		// The code before its test (whose name and body hold the words
		// more often), unless the question is about tests.
		{"tests ranked lower", "read settings", "ReadSettings", "TestReadSettings"},
		{"tests asked for", "test read settings", "TestReadSettings", "ReadSettings"},
		// Called by the best hit (in another file): backoff comes before
		// spread, whose shorter text holds the question's word as often.
		{"call neighbour", "attempt fetch", "backoff", "spread"},
		// In the best hit's file (not called): limit before spread.
		{"file neighbour", "attempt fetch", "limit", "spread"},
		// Whole words first; prefixes only when whole words find too few.
		{"prefix fallback", "pars", "Parser", ""},
	}
	for _, c := range cases {
		got := rank(c.question)
		if !before(got, c.first, c.second) || (c.second == "" && !slices.Contains(got, c.first)) {
			t.Errorf("%s: %q ranks %q, want %s before %s", c.signal, c.question, got, c.first, c.second)
		}
	}
}
