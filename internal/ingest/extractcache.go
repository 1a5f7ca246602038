package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"

	"gitnexus.dev/gitnexus/internal/lang"
)

// ExtractCache remembers what the extractors made of each file, by path
// and content hash, so that a re-index extracts only the files whose
// content changed and reads the others' facts back. Facts depend on the
// file's path and content and on the extractors, so an entry is used only
// when the path and the SHA-256 of the content match and the cache was
// written by the same extractors (Key: the caller names them, e.g. by a
// hash of the executable). Everything after extraction (resolution,
// processes, the store) runs as in a full index, so the graph is the one a
// full index makes; communities are updated locally from the index's, and
// the files extracted anew are what changed for them, which holds only for
// the cache written with that index: Token, which the caller keeps in the
// index's meta, ties the two.
//
// The cache written with an index also says how that index resolved each
// file (its call counts) and which configuration files it resolved with
// (Configs): a re-index that resolves only the files an edit can affect
// takes the others' counts from it (resolve.go).
type ExtractCache struct {
	Key   string
	Token string
	// Configs is the digest of the configuration files the resolvers read
	// (configDigest) in the run that wrote the cache.
	Configs [sha256.Size]byte
	entries map[string]cacheEntry // by path
	// file describes the files the cache was loaded from; zero when it
	// was not loaded (Save then writes it whole).
	file cacheFile
}

// cacheFile is where a loaded cache came from: the token of the base
// file, its size, and the length of its log's records applied to it (0
// when the log holds none that apply).
type cacheFile struct {
	path     string
	base     string
	baseSize int64
	logEnd   int64
}

type cacheEntry struct {
	hash  [sha256.Size]byte
	facts []byte // lang.AppendFacts form
	// resolved are the file's call counts in the run that wrote the
	// cache; set is false until resolution gave them.
	resolved lang.ResolveStats
	set      bool
	// sig is the file's signature when its content was read (filesig.go);
	// zero when the file had changed too recently to keep one.
	sig fileSig
}

// Version 3 added each file's call counts and signature, and the
// configuration digest.
const extractCacheMagic = "gitnexus extraction cache 3\n"

// NewExtractCache returns an empty cache for the extractors Key names.
func NewExtractCache(key string) *ExtractCache {
	return &ExtractCache{Key: key, entries: map[string]cacheEntry{}}
}

// LoadExtractCache reads the cache at path. A missing file, one written by
// other extractors (another key) or one that does not parse gives an empty
// cache: the cache only saves work, it never decides what the graph is.
func LoadExtractCache(path, key string) *ExtractCache {
	c := NewExtractCache(key)
	data, err := os.ReadFile(path)
	if err != nil {
		return c
	}
	token, configs, entries, err := parseExtractCache(data, key)
	if err != nil {
		return c
	}
	c.Token, c.Configs, c.entries = token, configs, entries
	c.file = cacheFile{path: path, base: token, baseSize: int64(len(data))}
	if log, err := os.ReadFile(path + logSuffix); err == nil {
		c.applyLog(log)
	}
	return c
}

func parseExtractCache(data []byte, key string) (token string, configs [sha256.Size]byte, _ map[string]cacheEntry, _ error) {
	if !bytes.HasPrefix(data, []byte(extractCacheMagic)) {
		return "", configs, nil, errors.New("not an extraction cache")
	}
	data = data[len(extractCacheMagic):]
	str := func() (string, bool) { return readStr(&data) }
	if k, ok := str(); !ok || k != key {
		return "", configs, nil, errors.New("written by other extractors")
	}
	token, ok := str()
	if !ok || len(data) < sha256.Size {
		return "", configs, nil, errors.New("truncated")
	}
	copy(configs[:], data)
	data = data[sha256.Size:]
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return "", configs, nil, errors.New("bad entry count")
	}
	data = data[k:]
	entries := make(map[string]cacheEntry, n)
	for i := uint64(0); i < n; i++ {
		p, ok := str()
		if !ok {
			return "", configs, nil, errors.New("truncated")
		}
		var e cacheEntry
		if data, ok = e.readFacts(data); !ok {
			return "", configs, nil, errors.New("truncated")
		}
		if data, ok = e.readCounts(data); !ok {
			return "", configs, nil, errors.New("truncated")
		}
		entries[p] = e
	}
	return token, configs, entries, nil
}

// readStr reads a string (its length, then its bytes) from the start of
// *data and moves *data past it; ok is false when data is too short.
func readStr(data *[]byte) (s string, ok bool) {
	d := *data
	n, k := binary.Uvarint(d)
	if k <= 0 || n > uint64(len(d)-k) {
		return "", false
	}
	*data = d[k+int(n):]
	return string(d[k : k+int(n)]), true
}

// readFacts reads an entry's content hash and facts (appendFacts' form)
// from the start of data, and returns the rest; ok is false when data is
// too short.
func (e *cacheEntry) readFacts(data []byte) (rest []byte, ok bool) {
	if len(data) < sha256.Size {
		return nil, false
	}
	copy(e.hash[:], data)
	data = data[sha256.Size:]
	m, k := binary.Uvarint(data)
	if k <= 0 || m > uint64(len(data)-k) {
		return nil, false
	}
	e.facts = data[k : k+int(m)]
	return data[k+int(m):], true
}

// readCounts reads an entry's call counts and signature (appendCounts'
// form) from the start of data, and returns the rest.
func (e *cacheEntry) readCounts(data []byte) (rest []byte, ok bool) {
	var counts [10]uint64
	for j := range counts {
		v, k := binary.Uvarint(data)
		if k <= 0 {
			return nil, false
		}
		counts[j], data = v, data[k:]
	}
	e.set = counts[0] == 1
	e.resolved = lang.ResolveStats{Calls: int(counts[1]), CallsResolved: int(counts[2]), CallsNameOnly: int(counts[3]),
		CallsUnresolved: int(counts[4]), Macros: int(counts[5])}
	e.sig = fileSig{size: int64(counts[6]), mtime: int64(counts[7]), ctime: int64(counts[8]), ino: counts[9]}
	return data, true
}

// appendFacts appends the entry's content hash and facts.
func (e cacheEntry) appendFacts(buf []byte) []byte {
	buf = append(buf, e.hash[:]...)
	buf = binary.AppendUvarint(buf, uint64(len(e.facts)))
	return append(buf, e.facts...)
}

// appendCounts appends the entry's call counts and signature.
func (e cacheEntry) appendCounts(buf []byte) []byte {
	set := uint64(0)
	if e.set {
		set = 1
	}
	r := e.resolved
	for _, v := range []uint64{set, uint64(r.Calls), uint64(r.CallsResolved), uint64(r.CallsNameOnly), uint64(r.CallsUnresolved), uint64(r.Macros),
		uint64(e.sig.size), uint64(e.sig.mtime), uint64(e.sig.ctime), e.sig.ino} {
		buf = binary.AppendUvarint(buf, v)
	}
	return buf
}

// lookup returns the facts cached for a file with this path and content
// hash, and their encoded form; nil when there are none.
func (c *ExtractCache) lookup(path string, hash [sha256.Size]byte) (*lang.FileFacts, []byte) {
	if c == nil {
		return nil, nil
	}
	e, ok := c.entries[path]
	if !ok || e.hash != hash {
		return nil, nil
	}
	if f := e.decode(path); f != nil {
		return f, e.facts
	}
	return nil, nil
}

// ContentHash is the SHA-256 (hex) of the content of the file at path
// whose facts the cache holds: after a run, the content it indexed.
func (c *ExtractCache) ContentHash(path string) (string, bool) {
	if c == nil {
		return "", false
	}
	e, ok := c.entries[path]
	if !ok {
		return "", false
	}
	return hex.EncodeToString(e.hash[:]), true
}

// add records the facts of a file (encoded) under its path and content
// hash, with the file's signature when it was read (zero for none).
func (c *ExtractCache) add(path string, hash [sha256.Size]byte, facts []byte, sig fileSig) {
	c.entries[path] = cacheEntry{hash: hash, facts: facts, sig: sig}
}

// unchanged returns the facts cached for the file at path when it has the
// signature sig (not zero) the cache recorded, with their encoded form and
// its content hash then: the file holds what was read then.
func (c *ExtractCache) unchanged(path string, sig fileSig) (*lang.FileFacts, []byte, [sha256.Size]byte) {
	if c == nil || sig == (fileSig{}) {
		return nil, nil, [sha256.Size]byte{}
	}
	e, ok := c.entries[path]
	if !ok || e.sig != sig {
		return nil, nil, [sha256.Size]byte{}
	}
	f, enc := c.lookup(path, e.hash)
	return f, enc, e.hash
}

// setResolved records how the run resolved the file at path (which add
// recorded).
func (c *ExtractCache) setResolved(path string, st lang.ResolveStats) {
	if e, ok := c.entries[path]; ok {
		e.resolved, e.set = st, true
		c.entries[path] = e
	}
}

// resolved returns the call counts of the file at path in the run that
// wrote the cache; ok is false when it has none.
func (c *ExtractCache) resolved(path string) (lang.ResolveStats, bool) {
	e, ok := c.entries[path]
	return e.resolved, ok && e.set
}

// prior returns the facts the cache holds for the file at path, whatever
// its content is now; nil when it holds none.
func (c *ExtractCache) prior(path string) *lang.FileFacts {
	e, ok := c.entries[path]
	if !ok {
		return nil
	}
	return e.decode(path)
}

// decode returns the entry's facts of the file at path; nil when they do
// not decode whole, or are another file's. The cache's data is never
// written to once read: the facts' strings stay in it.
func (e cacheEntry) decode(path string) *lang.FileFacts {
	f, rest, err := lang.DecodeFactsShared(e.facts)
	if err != nil || len(rest) != 0 || f.Path != path {
		return nil
	}
	return f
}

// paths calls fn with the path of every file the cache holds.
func (c *ExtractCache) paths(fn func(path string)) {
	for p := range c.entries {
		fn(p)
	}
}

// Len is the number of files the cache holds.
func (c *ExtractCache) Len() int { return len(c.entries) }

// Same reports whether next, the cache a run built on c, holds what c
// holds: every file's facts were read from c, resolved to the same counts,
// with the same configuration files, and no file left. Writing it again
// would change nothing.
func (c *ExtractCache) Same(next *ExtractCache) bool {
	if c.Key != next.Key || c.Configs != next.Configs || len(c.entries) != len(next.entries) {
		return false
	}
	for p, e := range next.entries {
		if old, ok := c.entries[p]; !ok || old.hash != e.hash || old.set != e.set || old.resolved != e.resolved || old.sig != e.sig {
			return false
		}
	}
	return true
}
