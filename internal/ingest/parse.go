package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/repofiles"
)

// Causes of a listed file being left out that only reading it finds. They
// are counted with the listing's (repofiles.Skip*); a read may also find
// a file repofiles.SkipVanished or repofiles.SkipUnreadable.
const (
	SkipBinary   = "binary"
	SkipTooLarge = "too-large"
	SkipMinified = "minified"
)

// parsed is what reading one listed file produced.
type parsed struct {
	path   string
	lang   lang.Language // nil for files in no supported language
	facts  *lang.FileFacts
	config []byte // content, when the file is a configuration file a resolver reads
	skip   string // skip cause, "" when kept
	err    error  // extraction failure (the file is kept as a plain File)
	// hash and encoded are the content's SHA-256 and the facts in their
	// cached form, for the next run's extraction cache, with the file's
	// signature when it was read (filesig.go); reused tells the facts came
	// from this run's cache.
	hash    [sha256.Size]byte
	encoded []byte
	sig     fileSig
	reused  bool
	unread  bool // reused without reading the file: its signature was the cache's
}

// parseAll reads and extracts every file with a pool of workers, each owning
// one extractor per language (parsers are not thread-safe). Results keep the
// order of files. The files in first are handed out before the others:
// those most likely to be extracted (changed since the index), so that one
// worker extracts them while the others read the rest from the cache.
func parseAll(ctx context.Context, root string, files []string, infos []fs.FileInfo, first map[string]bool, workers int, maxSize int64,
	configs *configNames, cache *ExtractCache, progress func(done, total int)) ([]parsed, error) {
	out := make([]parsed, len(files))
	if workers < 1 {
		workers = 1
	}
	start := time.Now()
	jobs := make(chan int, workers*4)
	var done atomic.Int64
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			extractors := map[string]langExtractor{}
			defer func() {
				for _, e := range extractors {
					e.Close()
				}
			}()
			for i := range jobs {
				if ctx.Err() != nil {
					continue
				}
				var fi fs.FileInfo
				if i < len(infos) {
					fi = infos[i]
				}
				r, err := parseOne(root, files[i], fi, maxSize, configs, cache, extractors, start)
				if err != nil {
					errOnce.Do(func() { firstErr = err })
				}
				out[i] = r
				n := done.Add(1)
				if progress != nil {
					progress(int(n), len(files))
				}
			}
		}()
	}
	for _, i := range dispatchOrder(files, first) {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, firstErr
}

// dispatchOrder is the order in which parseAll hands out the files (their
// indexes): those in first, then the others, each in the files' order.
func dispatchOrder(files []string, first map[string]bool) []int {
	order := make([]int, 0, len(files))
	if len(first) > 0 {
		for i, f := range files {
			if first[f] {
				order = append(order, i)
			}
		}
	}
	for i, f := range files {
		if !first[f] {
			order = append(order, i)
		}
	}
	return order
}

// parseOne reads one file, classifies it, and extracts its facts, or reads
// them from the cache when it has them for this content; a file whose
// signature is the one the cache recorded is not read at all. The
// returned error is fatal (an extractor that cannot be created); problems
// with the file itself are recorded in the result. fi is the file's stat
// when the listing took it, nil to take it now; start is when the run
// began reading files (after the listing: a signature taken earlier is
// older than the content read, which a later run tells apart).
func parseOne(root, rel string, fi fs.FileInfo, maxSize int64, configs *configNames, cache *ExtractCache, extractors map[string]langExtractor,
	start time.Time) (parsed, error) {
	r := parsed{path: rel}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if fi == nil {
		var err error
		if fi, err = os.Stat(abs); err != nil {
			r.skip = statSkip(err)
			return r, nil
		}
	}
	if fi.Size() > maxSize {
		r.skip = SkipTooLarge
		return r, nil
	}
	r.sig = sigOf(fi).settled(start)
	if !configs.match(rel) {
		if f, enc, hash := cache.unchanged(rel, r.sig); f != nil {
			if l := lang.ByName(f.Language); l != nil {
				r.lang, r.facts, r.encoded, r.hash, r.reused, r.unread = l, f, enc, hash, true, true
				return r, nil
			}
		}
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		r.skip = statSkip(err)
		return r, nil
	}
	if isBinary(src) {
		r.skip = SkipBinary
		return r, nil
	}
	if configs.match(rel) {
		r.config = src
	}
	if isMinified(rel, src) {
		r.skip = SkipMinified
		return r, nil
	}
	l := lang.ForFile(rel, src)
	if l == nil {
		return r, nil
	}
	r.lang = l
	r.hash = sha256.Sum256(src)
	if f, enc := cache.lookup(rel, r.hash); f != nil {
		r.facts, r.encoded, r.reused = f, enc, true
		return r, nil
	}
	ex, ok := extractors[l.Name()]
	if !ok {
		ex, err = l.NewExtractor()
		if err != nil {
			return r, fmt.Errorf("%s extractor: %w", l.Name(), err)
		}
		extractors[l.Name()] = ex
	}
	facts, err := safeExtract(ex, rel, src)
	if err != nil {
		r.err = err
		return r, nil
	}
	r.facts = facts
	if cache != nil {
		r.encoded = lang.AppendFacts(nil, facts)
	}
	return r, nil
}

// safeExtract turns a panic in an extractor into an error for that file, so
// that one pathological file never stops an analysis.
func safeExtract(ex lang.Extractor, rel string, src []byte) (f *lang.FileFacts, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("extract %s: %v", rel, p)
		}
	}()
	return ex.Extract(rel, src)
}

func statSkip(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return repofiles.SkipVanished
	}
	return repofiles.SkipUnreadable
}

// isBinary uses git's heuristic: a NUL byte in the first 8000 bytes.
func isBinary(src []byte) bool {
	n := len(src)
	if n > 8000 {
		n = 8000
	}
	return bytes.IndexByte(src[:n], 0) >= 0
}

// isMinified recognises minified bundles and similar generated one-liners:
// *.min.* names, or files of 4 KiB or more whose lines average more than 500
// bytes.
func isMinified(rel string, src []byte) bool {
	base := path.Base(rel)
	if bytes.Contains([]byte(base), []byte(".min.")) || bytes.Contains([]byte(base), []byte("-min.")) {
		return true
	}
	if len(src) < 4096 {
		return false
	}
	lines := bytes.Count(src, []byte{'\n'}) + 1
	return len(src)/lines > 500
}

// langExtractor is an extractor for one language, owned by one worker.
type langExtractor = lang.Extractor
