package ingest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
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
	if err := c.Save(path, nil); err != nil {
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

// TestExtractCacheLog: a cache built on a loaded one is saved as a record
// appended to the log while the log is small, loads back as the cache it
// was (entries, counts, signatures, token, removed files), and a record
// cut short by a killed run is ignored and overwritten by the next; a log
// of another file is ignored, and a whole write removes it.
func TestExtractCacheLog(t *testing.T) {
	hash := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	facts := func(path string, lines int) []byte {
		return lang.AppendFacts(nil, &lang.FileFacts{Path: path, Lines: lines})
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "extract.cache")
	logPath := path + logSuffix
	base := NewExtractCache("k")
	base.Token = "t0"
	for i := range 200 { // a base large enough for a few records
		p := fmt.Sprintf("f%03d.go", i)
		base.add(p, hash(p), facts(p, i+1), fileSig{size: int64(i)})
	}
	if err := base.Save(path, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logPath); !os.IsNotExist(err) {
		t.Fatalf("a whole write left a log: %v", err)
	}
	// edit builds the next cache from the one loaded: f001.go edited,
	// f002.go resolved to other counts, f003.go gone, new.go added.
	edit := func(prev *ExtractCache, token string, lines int) *ExtractCache {
		next := NewExtractCache("k")
		next.Token = token
		next.Configs = hash(token)
		for p, e := range prev.entries {
			switch p {
			case "f003.go":
				continue
			case "f001.go":
				e.hash, e.facts, e.sig = hash(fmt.Sprint(p, lines)), facts(p, lines), fileSig{size: int64(lines)}
			case "f002.go":
				e.resolved, e.set = lang.ResolveStats{Calls: lines, CallsResolved: 1}, true
			}
			next.entries[p] = e
		}
		next.add("new.go", hash("new"+token), facts("new.go", lines), fileSig{})
		return next
	}
	same := func(t *testing.T, got, want *ExtractCache) {
		t.Helper()
		if got.Token != want.Token || got.Configs != want.Configs || len(got.entries) != len(want.entries) {
			t.Fatalf("loaded token %q, %d entries; want %q, %d", got.Token, len(got.entries), want.Token, len(want.entries))
		}
		for p, e := range want.entries {
			g, ok := got.entries[p]
			if !ok || g.hash != e.hash || string(g.facts) != string(e.facts) || g.set != e.set || g.resolved != e.resolved || g.sig != e.sig {
				t.Errorf("%s: loaded %+v, want %+v", p, g, e)
			}
		}
	}
	prev := LoadExtractCache(path, "k")
	baseSize := prev.file.baseSize
	var want *ExtractCache
	for i, token := range []string{"t1", "t2", "t3"} {
		want = edit(prev, token, 1000+i)
		if err := want.Save(path, prev); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() != baseSize {
			t.Fatalf("save %d rewrote the file: %v", i, err)
		}
		prev = LoadExtractCache(path, "k")
		same(t, prev, want)
	}
	if !prev.Same(want) {
		t.Errorf("the loaded cache is not Same as the one saved")
	}

	// A record cut short: the load stops before it, and the next save
	// writes over it.
	good, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	torn := edit(prev, "t4", 2000)
	rec := torn.logRecord(prev)
	if err := os.WriteFile(logPath, append(good, rec[:len(rec)-3]...), 0o644); err != nil {
		t.Fatal(err)
	}
	prev = LoadExtractCache(path, "k")
	same(t, prev, want)
	before := want
	want = edit(prev, "t5", 3000)
	if err := want.Save(path, prev); err != nil {
		t.Fatal(err)
	}
	prev = LoadExtractCache(path, "k")
	same(t, prev, want)
	// A damaged byte in the last record: it is not applied.
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-6] ^= 0xff
	if err := os.WriteFile(logPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	same(t, LoadExtractCache(path, "k"), before)

	// A log of another file (left by a run killed between removing it
	// and renaming the new file into place) is ignored.
	other := NewExtractCache("k")
	other.Token = "other"
	other.add("a.go", hash("a"), facts("a.go", 1), fileSig{})
	if err := os.WriteFile(logPath, good, 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := path + ".other"
	if err := other.saveWhole(tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	same(t, LoadExtractCache(path, "k"), other)

	// A log grown past a quarter of the file: the cache is written whole.
	prev = LoadExtractCache(path, "k")
	big := NewExtractCache("k")
	big.Token = "big"
	for i := range 50 {
		p := fmt.Sprintf("g%02d.go", i)
		big.add(p, hash(p), facts(p, i), fileSig{})
	}
	if err := big.Save(path, prev); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logPath); !os.IsNotExist(err) {
		t.Errorf("a whole write left the log: %v", err)
	}
	same(t, LoadExtractCache(path, "k"), big)
}
