package history

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// The line and symbol pass. One goroutine (the feeder) reads the diff of
// each commit from git, fills in the files' line counts, fetches the blobs
// a source file's change needs through cat-file (once per blob while it is
// in the parse cache) and queues one job per file; workers parse blobs
// with the language extractors and map hunks onto symbols. A job parses
// the blobs it fetched before it waits for any other, and jobs are taken
// in the order they were queued, so a blob another job parses is always
// being parsed or done: the pool cannot deadlock.

// errBudget stops the pass when its time is up (Options.Budget).
var errBudget = errors.New("the history's time budget is spent")

// parseCacheSize is how many parsed blobs the cache keeps. A file's next
// change usually comes within a few hundred commits; on the benchmark
// repository a larger cache changed the hit rate by under a percent.
const parseCacheSize = 4096

// side is one version of a file that a job maps onto.
type side struct {
	entry   *parseEntry
	content []byte // set when this job parses the entry
	path    string
	lang    lang.Language
	// base is another version of the path, parsed by an earlier job, that
	// a version after a commit no job has read yet (a branch's version,
	// when the merge came first) can be derived from through a line diff
	// with baseContent.
	base        *parseEntry
	baseContent []byte
}

// fileJob maps one file change onto symbols.
type fileJob struct {
	seq       int
	change    *graph.FileChange
	hunks     []hunk
	pre, post *side
}

// symbolPass is the state of one run of the line and symbol pass.
type symbolPass struct {
	ctx     context.Context
	opt     *Options
	commits map[string]*loggedCommit
	blobs   *blobReader
	cache   *parseCache
	jobs    chan *fileJob

	mu      sync.Mutex
	results [][]graph.SymbolChange // by job seq

	done  int
	total int
	// deadline ends the pass early (Options.Budget); seen are the commits
	// it took before (accepted, or read by the fallback).
	deadline time.Time
	seen     map[string]bool

	parsed       atomic.Int64
	derived      atomic.Int64
	diffed       atomic.Int64
	filesSkipped atomic.Int64
}

// runSymbolPass reads the diffs of the given commits (inputs: "<hash>" or
// "<hash> <first parent>") and returns the symbol changes of each commit,
// in input order. It fills the line counts of the commits' files.
func runSymbolPass(ctx context.Context, root string, opt *Options, commits map[string]*loggedCommit,
	inputs []string, st *Stats) (map[string][]graph.SymbolChange, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	blobs, err := newBlobReader(ctx, root)
	if err != nil {
		return nil, err
	}
	defer blobs.close()
	p := &symbolPass{ctx: ctx, opt: opt, commits: commits, blobs: blobs, cache: newParseCache(parseCacheSize),
		jobs: make(chan *fileJob, opt.Workers*8), total: len(inputs), seen: make(map[string]bool, len(inputs))}
	if opt.Budget > 0 {
		p.deadline = time.Now().Add(opt.Budget)
	}
	var wg sync.WaitGroup
	workerErr := make([]error, opt.Workers)
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			workerErr[w] = p.work()
		}()
	}
	err = runResumable(ctx, root, inputs, diffArgs, func(r *bufio.Reader, emit func(string, *commitDiff) error) error {
		return parseDiff(r, func(d *commitDiff) error { return emit(d.hash, d) })
	}, p.accept, func(input string, cause error) error {
		h := firstField(input)
		p.seen[h] = true
		if c := commits[h]; c != nil {
			c.commit.SymbolsSkip = graph.SkipMissingObjects
		}
		st.MissingObjects++
		p.progress()
		return nil
	})
	close(p.jobs)
	wg.Wait()
	if errors.Is(err, errBudget) {
		err = nil
		for _, in := range inputs {
			if h := firstField(in); !p.seen[h] {
				commits[h].commit.SymbolsSkip = graph.SkipPending
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if err := errors.Join(workerErr...); err != nil {
		return nil, err
	}
	st.BlobsParsed += int(p.parsed.Load())
	st.BlobsDerived += int(p.derived.Load())
	st.BlobsDiffed += int(p.diffed.Load())
	st.ParseCacheHits += p.cache.hits
	st.FilesNotMapped += int(p.filesSkipped.Load())
	out := map[string][]graph.SymbolChange{}
	for _, rs := range p.results {
		for _, r := range rs {
			out[r.Commit] = append(out[r.Commit], r)
		}
	}
	for h, rs := range out {
		slices.SortFunc(rs, func(a, b graph.SymbolChange) int {
			return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind))
		})
		out[h] = rs
	}
	return out, nil
}

func (p *symbolPass) progress() {
	p.done++
	if p.opt.Progress != nil {
		p.opt.Progress(Event{Phase: PhaseSymbols, Done: p.done, Total: p.total})
	}
}

// accept takes one commit's diff: line counts for its files, and jobs for
// its source files.
func (p *symbolPass) accept(d *commitDiff) error {
	if !p.deadline.IsZero() && time.Now().After(p.deadline) {
		return errBudget
	}
	p.seen[d.hash] = true
	defer p.progress()
	c := p.commits[d.hash]
	if c == nil {
		return fmt.Errorf("git diff-tree answered %s, which was not asked", d.hash)
	}
	byBlobs := map[[2]string][]int{}
	for i := range d.files {
		fd := &d.files[i]
		if fd.indexed {
			k := [2]string{fd.oldBlob, fd.newBlob}
			byBlobs[k] = append(byBlobs[k], i)
		}
	}
	for i := range c.files {
		f := &c.files[i]
		if f.OldBlob == f.NewBlob {
			f.Additions, f.Deletions = 0, 0 // renamed or mode changed only
			continue
		}
		k := [2]string{f.OldBlob, f.NewBlob}
		idx := byBlobs[k]
		if len(idx) == 0 {
			continue // the diff paired the files differently: no counts
		}
		fd := &d.files[idx[0]]
		byBlobs[k] = idx[1:]
		if fd.binary {
			f.Binary = true
			continue
		}
		f.Additions, f.Deletions = fd.additions, fd.deletions
		if err := p.queue(f, fd.hunks); err != nil {
			return err
		}
	}
	return nil
}

// queue makes the job of one source file's change, fetching the blobs
// that are not parsed or being parsed.
func (p *symbolPass) queue(f *graph.FileChange, hunks []hunk) error {
	var pre, post *side
	if f.Status != 'D' && f.NewBlob != "" && p.opt.keepPath(f.Path) {
		if l := lang.ForPath(f.Path); l != nil {
			post = &side{path: f.Path, lang: l}
		}
	}
	if f.OldBlob != "" && f.Status != 'A' {
		prePath := f.Path
		if f.OldPath != "" {
			prePath = f.OldPath
		}
		if p.opt.keepPath(prePath) {
			if l := lang.ForPath(prePath); l != nil {
				pre = &side{path: prePath, lang: l}
			}
		}
	}
	if pre == nil && post == nil {
		return nil
	}
	for _, s := range []struct {
		sd   *side
		blob string
	}{{post, f.NewBlob}, {pre, f.OldBlob}} {
		if s.sd == nil {
			continue
		}
		latest := p.cache.latest(s.sd.path)
		entry, isNew := p.cache.get(s.blob, s.sd.path, s.sd.lang)
		s.sd.entry = entry
		if s.sd == pre {
			p.cache.remember(pre.path, entry)
		}
		if !isNew {
			continue
		}
		content, tooLarge, err := p.blobs.read(s.blob, p.opt.MaxFileSize)
		switch {
		case errors.Is(err, errMissingBlob):
			entry.failed = err
			close(entry.done)
		case err != nil:
			close(entry.done)
			return err
		case tooLarge || !p.opt.keepContent(s.sd.path, content):
			entry.table = &symbolTable{} // not indexed at HEAD either: no symbols
			close(entry.done)
		default:
			s.sd.content = content
			if s.sd == post && latest != nil && latest != entry && standAlone(post.lang) {
				if err := p.readBase(post, latest); err != nil {
					return err
				}
			}
		}
	}
	p.mu.Lock()
	job := &fileJob{seq: len(p.results), change: f, hunks: hunks, pre: pre, post: post}
	p.results = append(p.results, nil)
	p.mu.Unlock()
	select {
	case p.jobs <- job:
		return nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// readBase makes latest, when it is a version of s's path in the same
// language, the base s may be derived from.
func (p *symbolPass) readBase(s *side, latest *parseEntry) error {
	if latest.lang != s.lang.Name() {
		return nil
	}
	content, tooLarge, err := p.blobs.read(latest.blob, p.opt.MaxFileSize)
	switch {
	case errors.Is(err, errMissingBlob) || tooLarge:
		return nil
	case err != nil:
		return err
	}
	s.base, s.baseContent = latest, content
	return nil
}

// parseAfter reads a version after a commit: derived from its base when
// it has one that lines up, else whole. The base belongs to an earlier
// job, which parses its own blobs before it waits for any other.
func (p *symbolPass) parseAfter(bp *blobParser, s *side) (*symbolTable, error) {
	byContent(s)
	if s.base != nil {
		<-s.base.done
		if s.base.failed == nil {
			t, ok, err := bp.derive(s.lang, s.path, s.content, s.base.table, lineHunks(s.content, s.baseContent))
			if err == nil && ok {
				p.diffed.Add(1)
				return t, nil
			}
		}
	}
	return bp.parse(s.lang, s.path, s.content)
}

// byContent settles the language of a side once its content is read: a
// `.h` file written in C++ is C++ (lang.ForFile).
func byContent(s *side) {
	if l := lang.ForFile(s.path, s.content); l != nil {
		s.lang = l
	}
}

// standAlone reports whether l derives a version of a file from another.
func standAlone(l lang.Language) bool {
	sa, ok := l.(lang.StandAlone)
	return ok && sa.StandAloneDeclarations()
}

// work runs jobs until the queue closes. A job reads the version after
// the commit first: the version before is derived from it when it can be.
func (p *symbolPass) work() error {
	bp := newBlobParser(p.opt.fullParses)
	defer bp.close()
	var firstErr error
	for job := range p.jobs {
		if firstErr != nil || p.ctx.Err() != nil {
			for _, s := range []*side{job.post, job.pre} {
				if s != nil && s.content != nil {
					s.entry.failed = errors.New("not parsed")
					close(s.entry.done)
				}
			}
			continue
		}
		if s := job.post; s != nil && s.content != nil {
			s.entry.table, s.entry.failed = p.parseAfter(bp, s)
			s.content, s.baseContent = nil, nil
			p.parsed.Add(1)
			close(s.entry.done)
		}
		if s := job.pre; s != nil && s.content != nil {
			byContent(s)
			var base *symbolTable
			if job.post != nil && job.post.lang.Name() == s.lang.Name() {
				<-job.post.entry.done // parsed by this job or an earlier one
				if job.post.entry.failed == nil {
					base = job.post.entry.table
				}
			}
			t, derived, err := bp.derive(s.lang, s.path, s.content, base, job.hunks)
			if err == nil && !derived {
				t, err = bp.parse(s.lang, s.path, s.content)
			}
			if derived {
				p.derived.Add(1)
			}
			s.entry.table, s.entry.failed = t, err
			s.content = nil
			p.parsed.Add(1)
			close(s.entry.done)
		}
		var pre, post *symbolTable
		failed := false
		for _, s := range []*side{job.pre, job.post} {
			if s == nil {
				continue
			}
			<-s.entry.done
			if s.entry.failed != nil {
				failed = true
			}
		}
		if failed {
			p.filesSkipped.Add(1)
			continue
		}
		if job.pre != nil {
			pre = job.pre.entry.table
		}
		if job.post != nil {
			post = job.post.entry.table
		}
		changes := attribute(pre, post, job.hunks)
		for i := range changes {
			changes[i].Commit, changes[i].Path = job.change.Commit, job.change.Path
		}
		p.mu.Lock()
		p.results[job.seq] = changes
		p.mu.Unlock()
	}
	return firstErr
}
