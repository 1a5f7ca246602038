package ingest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// The extraction cache's log. A re-index after a one-file edit changes a
// few of the cache's entries (the file's facts, and the call counts of
// the files resolved again), but the cache is the facts of every file: 99
// MB on the Go standard library, which took 115-400 ms to write again,
// beside the store. So Save appends what changed to a log beside the file
// (extract.cache.log), and writes the whole cache again only when the log
// has grown to a quarter of it.
//
// The log starts with a header naming the token of the file it extends;
// each record then gives the cache's token, configuration digest, the
// entries that are new or changed and the paths that are gone, framed by
// its length and a CRC-32C. A load applies the records in order up to the
// first that is incomplete or damaged (a run killed while appending), and
// the next append overwrites from there. A log whose header names another
// file is ignored: writing the cache whole removes the log before the new
// file is renamed into place, so a run killed between the two leaves the
// old file alone, which is an older state of the cache, never a wrong one
// (entries are keyed by content, and the counts are used only with the
// token the index names).

const (
	logSuffix   = ".log"
	logMagic    = "gitnexus extraction cache log 1\n"
	entryFull   = 0 // a record's entry with its facts
	entryCounts = 1 // a record's entry with only its counts and signature (same content)
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Save writes the cache to path. When prev, the cache this one was built
// from, was loaded from path, what differs from it is appended to the log
// while the log stays within a quarter of the file's size; otherwise the
// whole cache is written, through a temporary file renamed into place so
// that a reader never sees half of it. Temporary files a killed run left
// are the caller's to remove (analyze does, under its lock).
func (c *ExtractCache) Save(path string, prev *ExtractCache) error {
	if prev != nil && prev.file.path == path && prev.file.base != "" && prev.Key == c.Key {
		rec := c.logRecord(prev)
		size := prev.file.logEnd
		if size == 0 {
			size = int64(len(logHeader(prev.file.base)))
		}
		if size+int64(len(rec)) <= prev.file.baseSize/4 {
			return appendLog(prev.file, rec)
		}
	}
	return c.saveWhole(path)
}

// logHeader starts a log extending the file with this token.
func logHeader(base string) []byte {
	b := append([]byte(logMagic), binary.AppendUvarint(nil, uint64(len(base)))...)
	return append(b, base...)
}

// logRecord is the framed record that turns prev into c.
func (c *ExtractCache) logRecord(prev *ExtractCache) []byte {
	var p []byte
	p = binary.AppendUvarint(p, uint64(len(c.Token)))
	p = append(p, c.Token...)
	p = append(p, c.Configs[:]...)
	var changed []string
	for path, e := range c.entries {
		if old, ok := prev.entries[path]; !ok || old.hash != e.hash || old.set != e.set || old.resolved != e.resolved || old.sig != e.sig {
			changed = append(changed, path)
		}
	}
	slices.Sort(changed)
	p = binary.AppendUvarint(p, uint64(len(changed)))
	for _, path := range changed {
		e := c.entries[path]
		p = binary.AppendUvarint(p, uint64(len(path)))
		p = append(p, path...)
		if old, ok := prev.entries[path]; ok && old.hash == e.hash {
			p = append(p, entryCounts)
		} else {
			p = append(p, entryFull)
			p = e.appendFacts(p)
		}
		p = e.appendCounts(p)
	}
	var gone []string
	for path := range prev.entries {
		if _, ok := c.entries[path]; !ok {
			gone = append(gone, path)
		}
	}
	slices.Sort(gone)
	p = binary.AppendUvarint(p, uint64(len(gone)))
	for _, path := range gone {
		p = binary.AppendUvarint(p, uint64(len(path)))
		p = append(p, path...)
	}
	rec := binary.AppendUvarint(nil, uint64(len(p)))
	rec = append(rec, p...)
	return binary.LittleEndian.AppendUint32(rec, crc32.Checksum(p, castagnoli))
}

// appendLog writes rec at the end of the log's records that apply to the
// file (a new log when none do), dropping whatever follows them, and
// syncs it.
func appendLog(file cacheFile, rec []byte) error {
	f, err := os.OpenFile(file.path+logSuffix, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("write the extraction cache's log: %w", err)
	}
	at := file.logEnd
	if at == 0 {
		rec = append(logHeader(file.base), rec...)
	}
	_, werr := f.WriteAt(rec, at)
	err = errors.Join(werr, f.Truncate(at+int64(len(rec))), f.Sync(), f.Close())
	if err != nil {
		return fmt.Errorf("write the extraction cache's log: %w", err)
	}
	return nil
}

// applyLog applies the records of log that extend the file c was loaded
// from, in order, up to the first that is incomplete or damaged.
func (c *ExtractCache) applyLog(log []byte) {
	head := logHeader(c.file.base)
	if len(log) < len(head) || string(log[:len(head)]) != string(head) {
		return
	}
	at := len(head)
	for at < len(log) {
		n, k := binary.Uvarint(log[at:])
		if k <= 0 || n > uint64(len(log)-at-k) || uint64(len(log)-at-k)-n < 4 {
			return
		}
		p := log[at+k : at+k+int(n)]
		if binary.LittleEndian.Uint32(log[at+k+int(n):]) != crc32.Checksum(p, castagnoli) || !c.applyRecord(p) {
			return
		}
		at += k + int(n) + 4
		c.file.logEnd = int64(at)
	}
}

// applyRecord applies one record's payload; false, with c unchanged,
// when it does not read whole or names an entry c lacks.
func (c *ExtractCache) applyRecord(p []byte) bool {
	str := func() (string, bool) { return readStr(&p) }
	token, ok := str()
	if !ok || len(p) < len(c.Configs) {
		return false
	}
	var configs [len(c.Configs)]byte
	copy(configs[:], p)
	p = p[len(configs):]
	n, k := binary.Uvarint(p)
	if k <= 0 || n > uint64(len(p)) {
		return false
	}
	p = p[k:]
	set := make(map[string]cacheEntry, n)
	for range n {
		path, ok := str()
		if !ok || len(p) == 0 {
			return false
		}
		kind := p[0]
		p = p[1:]
		var e cacheEntry
		switch kind {
		case entryFull:
			if p, ok = e.readFacts(p); !ok {
				return false
			}
		case entryCounts:
			old, had := c.entries[path]
			if !had {
				return false
			}
			e.hash, e.facts = old.hash, old.facts
		default:
			return false
		}
		if p, ok = e.readCounts(p); !ok {
			return false
		}
		set[path] = e
	}
	n, k = binary.Uvarint(p)
	if k <= 0 || n > uint64(len(p)) {
		return false
	}
	p = p[k:]
	gone := make([]string, 0, n)
	for range n {
		path, ok := str()
		if !ok {
			return false
		}
		gone = append(gone, path)
	}
	if len(p) != 0 {
		return false
	}
	maps.Copy(c.entries, set)
	for _, path := range gone {
		delete(c.entries, path)
	}
	c.Token, c.Configs = token, configs
	return true
}

// saveWhole writes the whole cache to path, and removes the log first
// (see above).
func (c *ExtractCache) saveWhole(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	w := bufio.NewWriterSize(tmp, 1<<20)
	var buf []byte
	buf = append(buf, extractCacheMagic...)
	buf = binary.AppendUvarint(buf, uint64(len(c.Key)))
	buf = append(buf, c.Key...)
	buf = binary.AppendUvarint(buf, uint64(len(c.Token)))
	buf = append(buf, c.Token...)
	buf = append(buf, c.Configs[:]...)
	buf = binary.AppendUvarint(buf, uint64(len(c.entries)))
	w.Write(buf)
	for _, p := range slices.Sorted(maps.Keys(c.entries)) {
		e := c.entries[p]
		buf = binary.AppendUvarint(buf[:0], uint64(len(p)))
		buf = append(buf, p...)
		buf = e.appendFacts(buf)
		buf = e.appendCounts(buf)
		w.Write(buf)
	}
	if err := errors.Join(w.Flush(), tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("write the extraction cache: %w", err)
	}
	if err := os.Remove(path + logSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the extraction cache's log: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}
