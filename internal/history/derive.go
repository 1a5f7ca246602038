package history

import (
	"bytes"
	"fmt"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Deriving a version from the next one. Most commits change a few
// declarations of a file; parsing and extracting the whole file before
// the commit again is what dominated the symbol pass (on prometheus, 28 ms
// a blob, half parsing and half extraction, for files of up to 7,000
// lines). The history is read newest first, so when a commit's "before"
// is needed its "after" is already parsed: for a language whose top-level
// declarations stand alone (lang.StandAlone), the version before is the
// version after with the declarations the hunks touch read again. Those
// declarations are extracted from a copy of the file whose other lines
// are empty, so that lines keep their numbers; the symbols of the other
// declarations are carried over, moved by the lines the commit added or
// removed above them. When anything does not line up (a syntax error, a
// symbol across the edge of the region), the whole file is read.

// derive returns the table of pre, the file before a commit, from post,
// the table after it, and the commit's hunks for the file. ok is false
// when it cannot: the caller then reads the whole file.
func (b *blobParser) derive(l lang.Language, path string, pre []byte, post *symbolTable, hunks []hunk) (t *symbolTable, ok bool, err error) {
	if b.full || post == nil || post.tops == nil || len(hunks) == 0 {
		return nil, false, nil
	}
	if sa, isSA := l.(lang.StandAlone); !isSA || !sa.StandAloneDeclarations() {
		return nil, false, nil
	}
	defer func() {
		if p := recover(); p != nil {
			t, ok, err = nil, false, fmt.Errorf("extract %s: %v", path, p)
		}
	}()
	ex, err := b.extractor(l)
	if err != nil {
		return nil, false, err
	}
	tx, isTX := ex.(lang.TreeExtractor)
	if !isTX {
		return nil, false, nil
	}
	preLines := int32(lang.CountLines(pre))
	lo, preEnd, postEnd, ok := changedRegion(post, hunks, preLines)
	if !ok {
		return nil, false, nil
	}
	delta := post.lines - preLines
	blank := blankOutside(pre, lo, preEnd)
	f, tops, err := b.extractTree(tx, path, blank)
	if err != nil || tops == nil {
		return nil, false, err // a syntax error in the region: read it all
	}
	syms := make([]fileSymbol, 0, len(post.syms)+len(f.Symbols))
	for _, s := range post.syms {
		if s.end < lo {
			syms = append(syms, s)
		}
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.StartLine <= 0 || int32(s.StartLine) < lo || int32(s.EndLine) > preEnd {
			return nil, false, nil // lineless, or outside the region: not a declaration's own
		}
		syms = append(syms, fileSymbol{kind: s.Kind, name: s.Name, qual: s.Qual, suffix: lang.OverloadSuffix(s),
			start: int32(s.StartLine), end: int32(s.EndLine), hidden: s.Hidden || s.StartLine <= 0})
	}
	for _, s := range post.syms {
		if s.start > postEnd {
			s.start -= delta
			s.end -= delta
			syms = append(syms, s)
		}
	}
	newTops := make([]lineRange, 0, len(post.tops)+len(tops))
	for _, r := range post.tops {
		if r.end < lo {
			newTops = append(newTops, r)
		}
	}
	for _, r := range tops {
		if r.start >= lo && r.end <= preEnd {
			newTops = append(newTops, r)
		}
	}
	for _, r := range post.tops {
		if r.start > postEnd {
			newTops = append(newTops, lineRange{r.start - delta, r.end - delta})
		}
	}
	return finishTable(syms, preLines, newTops), true, nil
}

// changedRegion returns the lines a commit changed, widened to whole
// top-level nodes of the version after it: lo..preEnd before the commit,
// lo..postEnd after it (the lines above lo are the same on both sides, and
// those below the region move by the difference in length). ok is false
// when a symbol after the commit crosses the edge of the region.
func changedRegion(post *symbolTable, hunks []hunk, preLines int32) (lo, preEnd, postEnd int32, ok bool) {
	delta := post.lines - preLines
	lo = int32(1 << 30)
	var hiPre, hiPost int32
	for _, h := range hunks {
		// A hunk of no lines on one side sits between two lines there:
		// both count as touched.
		ps, pe := h.oldStart, h.oldStart+h.oldCount-1
		if h.oldCount == 0 {
			pe = h.oldStart + 1
		}
		qs, qe := h.newStart, h.newStart+h.newCount-1
		if h.newCount == 0 {
			qe = h.newStart + 1
		}
		lo = min(lo, ps, qs)
		hiPre, hiPost = max(hiPre, pe), max(hiPost, qe)
	}
	lo = max(lo, 1)
	preEnd = max(hiPre, hiPost-delta)
	postEnd = preEnd + delta
	for _, r := range post.tops {
		if r.end >= lo && r.start <= postEnd {
			lo = min(lo, r.start)
			postEnd = max(postEnd, r.end)
		}
	}
	preEnd = postEnd - delta
	if preEnd < lo-1 || postEnd < lo-1 || preEnd > preLines+1 {
		return 0, 0, 0, false
	}
	for _, s := range post.syms {
		if s.start <= 0 || (s.start < lo && s.end >= lo) || (s.start <= postEnd && s.end > postEnd) {
			return 0, 0, 0, false
		}
	}
	return lo, preEnd, postEnd, true
}

// blankOutside returns src with the lines outside from..to emptied: their
// newlines are kept, so that lines keep their numbers, and nothing else,
// so that parsing the rest costs little more than its own length.
func blankOutside(src []byte, from, to int32) []byte {
	out := make([]byte, 0, int(from)+len(src)/4)
	line := int32(1)
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		end := len(src)
		if j >= 0 {
			end = i + j + 1
		}
		if line >= from && line <= to {
			out = append(out, src[i:end]...)
		} else if j >= 0 {
			out = append(out, '\n')
		}
		i = end
		line++
	}
	return out
}
