package ingest

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestExtractCacheRoundTripAndSame: a saved cache loads back for the same
// extractors only, and Same tells a run that changed nothing from one that
// did.
func TestExtractCacheRoundTripAndSame(t *testing.T) {
	facts := func(path string) []byte { return lang.AppendFacts(nil, &lang.FileFacts{Path: path, Lines: 3}) }
	hash := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	counts := lang.ResolveStats{Calls: 7, CallsResolved: 5, CallsNameOnly: 1, CallsUnresolved: 2, Macros: 3}
	c := NewExtractCache("k1")
	c.Configs = hash("go.mod")
	c.add("a.go", hash("a"), facts("a.go"), fileSig{})
	c.add("b.go", hash("b"), facts("b.go"), fileSig{})
	c.setResolved("a.go", counts)
	path := filepath.Join(t.TempDir(), "extract.cache")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded := LoadExtractCache(path, "k1")
	if loaded.Len() != 2 {
		t.Fatalf("loaded %d entries, want 2", loaded.Len())
	}
	if f, _ := loaded.lookup("a.go", hash("a")); f == nil || f.Path != "a.go" || f.Lines != 3 {
		t.Errorf("lookup a.go: %+v", f)
	}
	if f, _ := loaded.lookup("a.go", hash("changed")); f != nil {
		t.Errorf("a changed content found facts: %+v", f)
	}
	if other := LoadExtractCache(path, "k2"); other.Len() != 0 {
		t.Errorf("another build's cache loaded %d entries", other.Len())
	}
	if loaded.Configs != c.Configs {
		t.Errorf("configuration digest %x, want %x", loaded.Configs, c.Configs)
	}
	if st, ok := loaded.resolved("a.go"); !ok || st != counts {
		t.Errorf("a.go's counts %+v %v, want %+v", st, ok, counts)
	}
	if _, ok := loaded.resolved("b.go"); ok {
		t.Errorf("b.go has counts, none were set")
	}
	if f := loaded.prior("a.go"); f == nil || f.Path != "a.go" {
		t.Errorf("prior a.go: %+v", f)
	}
	if f := loaded.prior("c.go"); f != nil {
		t.Errorf("prior of a file the cache does not hold: %+v", f)
	}

	same := NewExtractCache("k1")
	same.Configs = c.Configs
	same.add("b.go", hash("b"), facts("b.go"), fileSig{})
	same.add("a.go", hash("a"), facts("a.go"), fileSig{})
	same.setResolved("a.go", counts)
	recounted := NewExtractCache("k1")
	recounted.Configs = c.Configs
	recounted.add("b.go", hash("b"), facts("b.go"), fileSig{})
	recounted.add("a.go", hash("a"), facts("a.go"), fileSig{})
	recounted.setResolved("a.go", lang.ResolveStats{Calls: 7})
	reconfigured := NewExtractCache("k1")
	reconfigured.add("b.go", hash("b"), facts("b.go"), fileSig{})
	reconfigured.add("a.go", hash("a"), facts("a.go"), fileSig{})
	reconfigured.setResolved("a.go", counts)
	edited := NewExtractCache("k1")
	edited.add("a.go", hash("a2"), facts("a.go"), fileSig{})
	edited.add("b.go", hash("b"), facts("b.go"), fileSig{})
	fewer := NewExtractCache("k1")
	fewer.add("a.go", hash("a"), facts("a.go"), fileSig{})
	rekeyed := NewExtractCache("k2")
	rekeyed.add("a.go", hash("a"), facts("a.go"), fileSig{})
	rekeyed.add("b.go", hash("b"), facts("b.go"), fileSig{})
	for _, tc := range []struct {
		name string
		next *ExtractCache
		want bool
	}{{"same files", same, true}, {"a file edited", edited, false}, {"a file gone", fewer, false}, {"other extractors", rekeyed, false},
		{"other counts", recounted, false}, {"other configuration files", reconfigured, false}} {
		if got := loaded.Same(tc.next); got != tc.want {
			t.Errorf("%s: Same = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// BenchmarkDecodeCache decodes every file's facts of the extraction cache
// GITNEXUS_BENCH_CACHE (a .gitnexus/extract.cache), as a re-index reads
// them back; skipped without it.
func BenchmarkDecodeCache(b *testing.B) {
	path := os.Getenv("GITNEXUS_BENCH_CACHE")
	if path == "" {
		b.Skip("GITNEXUS_BENCH_CACHE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	key := cacheKey(data)
	c := NewExtractCache(key)
	_, _, entries, err := parseExtractCache(data, key)
	if err != nil {
		b.Fatal(err)
	}
	c.entries = entries
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		n := 0
		for p, e := range c.entries {
			if f, _ := c.lookup(p, e.hash); f != nil {
				n++
			}
		}
		if n != len(c.entries) {
			b.Fatalf("decoded %d of %d", n, len(c.entries))
		}
	}
}

// cacheKey reads the key a cache file was written with.
func cacheKey(data []byte) string {
	data = data[len(extractCacheMagic):]
	n, k := binary.Uvarint(data)
	return string(data[k : k+int(n)])
}
