package agentsetup

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The instruction block: a short section of AGENTS.md (and of CLAUDE.md
// when the repository has one) that tells agents the gitnexus tools exist
// and when to use them, between two marker lines so that it can be updated
// in place and removed. Written only by `gitnexus analyze --agents-md`.

//go:embed block.md
var blockBody string

// Block markers: each is a whole line.
const (
	BlockBegin = "<!-- gitnexus:begin - written by `gitnexus analyze --agents-md`; `gitnexus setup --uninstall` removes it -->"
	BlockEnd   = "<!-- gitnexus:end -->"
)

// BlockFiles are the instruction files the block goes into: AGENTS.md
// always, CLAUDE.md when it exists.
func BlockFiles(repo string) []string {
	files := []string{filepath.Join(repo, "AGENTS.md")}
	if _, err := os.Stat(filepath.Join(repo, "CLAUDE.md")); err == nil {
		files = append(files, filepath.Join(repo, "CLAUDE.md"))
	}
	return files
}

// blockText is the block with the file's line break.
func blockText(nl string) string {
	text := BlockBegin + "\n" + blockBody + BlockEnd + "\n"
	return strings.ReplaceAll(text, "\n", nl)
}

// findBlock returns the span of the block: from the start of its begin
// line to the end of its end line (with the line break).
func findBlock(src []byte) (start, end int, ok bool) {
	begin := bytes.Index(src, []byte(BlockBegin))
	if begin < 0 || (begin > 0 && src[begin-1] != '\n') {
		return 0, 0, false
	}
	rel := bytes.Index(src[begin:], []byte(BlockEnd))
	if rel < 0 {
		return 0, 0, false
	}
	end = begin + rel + len(BlockEnd)
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 && len(bytes.TrimSpace(src[end:end+i])) == 0 {
		end += i + 1
	}
	return begin, end, true
}

// InstallBlock writes or updates the block in each of BlockFiles(repo).
func InstallBlock(o Options, repo string) ([]Change, error) {
	m, err := loadManifest(o.Home)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, path := range BlockFiles(repo) {
		changes = append(changes, o.installBlock(m, repo, path))
	}
	if o.DryRun {
		return changes, nil
	}
	return changes, m.save()
}

func (o *Options) installBlock(m *manifest, repo, path string) Change {
	c := Change{What: filepath.Base(path) + " block", Path: path}
	src, existed, err := readFile(path)
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	text := blockText(nl)
	var out []byte
	var prefix *string
	if start, end, ok := findBlock(src); ok {
		if string(src[start:end]) == text {
			c.Action = Unchanged
			return c
		}
		c.Action, out = Updated, splice(src, start, end, text)
	} else {
		p := ""
		if len(src) > 0 {
			if !bytes.HasSuffix(src, []byte("\n")) {
				p = nl
			}
			p += nl
		}
		prefix = &p
		c.Action, out = Added, splice(src, len(src), len(src), p+text)
		if !existed {
			c.Action = Created
		}
	}
	if o.DryRun {
		c.Diff = lineDiff(src, out)
		return c
	}
	if existed {
		if c.Backup, err = o.backup("block", path, src); err != nil {
			c.Action, c.Err = Failed, err
			return c
		}
	}
	if err := writeAtomic(path, out, 0o644); err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	if prefix != nil || m.find(kindBlock, path) == nil {
		m.put(record{Kind: kindBlock, Path: path, Repo: repo, CreatedFile: !existed, Hints: hints{Prefix: prefix}})
	}
	return c
}

// uninstallBlock removes the block from path, with what setup wrote before
// it; a file setup created and that holds nothing else is deleted.
func (o *Options) uninstallBlock(m *manifest, path string) (Change, bool) {
	c := Change{What: filepath.Base(path) + " block", Path: path}
	rec := m.find(kindBlock, path)
	src, existed, err := readFile(path)
	if err != nil {
		c.Action, c.Err = Failed, err
		return c, true
	}
	start, end, ok := findBlock(src)
	if !existed || !ok {
		m.drop(kindBlock, path)
		return c, false
	}
	prefix := "\n"
	if rec != nil && rec.Hints.Prefix != nil {
		prefix = *rec.Hints.Prefix
	} else if bytes.Contains(src, []byte("\r\n")) {
		prefix = "\r\n"
	}
	if start >= len(prefix) && string(src[start-len(prefix):start]) == prefix {
		start -= len(prefix)
	}
	out := splice(src, start, end, "")
	deleteFile := rec != nil && rec.CreatedFile && len(bytes.TrimSpace(out)) == 0
	c.Action = Removed
	if deleteFile {
		c.Action, c.Note = Deleted, "setup had created it"
	}
	if o.DryRun {
		if !deleteFile {
			c.Diff = lineDiff(src, out)
		}
		return c, true
	}
	if c.Backup, err = o.backup("block", path, src); err != nil {
		c.Action, c.Err = Failed, err
		return c, true
	}
	if deleteFile {
		err = os.Remove(path)
	} else {
		err = writeAtomic(path, out, 0o644)
	}
	if err != nil {
		c.Action, c.Err = Failed, fmt.Errorf("update %s: %w", path, err)
		return c, true
	}
	m.drop(kindBlock, path)
	return c, true
}
