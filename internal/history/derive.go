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
	regions, ok := changedRegions(post, hunks, preLines)
	if !ok {
		return nil, false, nil
	}
	f, tops, err := b.extractTree(l, tx, path, blankOutside(pre, regions))
	if err != nil || tops == nil {
		return nil, false, err // a syntax error in a region, or lang.StandAloneTree: read it all
	}
	read := make([]fileSymbol, 0, len(f.Symbols))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.StartLine <= 0 || regionOf(regions, int32(s.StartLine), int32(s.EndLine)) < 0 {
			return nil, false, nil // lineless, or outside the regions: not a declaration's own
		}
		read = append(read, fileSymbol{kind: s.Kind, name: s.Name, qual: s.Qual, suffix: lang.OverloadSuffix(s),
			start: int32(s.StartLine), end: int32(s.EndLine), hidden: s.Hidden})
	}
	// The symbols of post outside the regions, moved to their lines before
	// the commit, merged with those read, in document order.
	carried := make([]fileSymbol, 0, len(post.syms))
	for _, s := range post.syms {
		if inPostRegion(regions, s.start, s.end) {
			continue
		}
		d := shiftAt(regions, s.start)
		s.start, s.end = s.start-d, s.end-d
		carried = append(carried, s)
	}
	syms := make([]fileSymbol, 0, len(carried)+len(read))
	i, j := 0, 0
	for i < len(carried) || j < len(read) {
		if j == len(read) || i < len(carried) && carried[i].start < read[j].start {
			syms = append(syms, carried[i])
			i++
		} else {
			syms = append(syms, read[j])
			j++
		}
	}
	var newTops []lineRange
	ti := 0
	for _, r := range post.tops {
		if inPostRegion(regions, r.start, r.end) {
			continue
		}
		d := shiftAt(regions, r.start)
		moved := lineRange{r.start - d, r.end - d}
		for ti < len(tops) && tops[ti].start < moved.start {
			newTops = append(newTops, tops[ti])
			ti++
		}
		newTops = append(newTops, moved)
	}
	newTops = append(newTops, tops[ti:]...)
	return finishTable(syms, preLines, newTops), true, nil
}

// region is one stretch of lines a commit changed, widened to whole
// top-level nodes of the version after the commit: pre lines before the
// commit, post lines after it. Lines between regions are the same on both
// sides, moved by the lines the regions above them gained or lost.
type region struct {
	preStart, preEnd, postStart, postEnd int32
}

// changedRegions returns the regions of a commit's hunks, ascending and
// apart. ok is false when they do not line up: a symbol after the commit
// crossing the edge of a region, or regions out of bounds.
func changedRegions(post *symbolTable, hunks []hunk, preLines int32) ([]region, bool) {
	var out []region
	for _, h := range hunks {
		// A hunk of no lines on one side sits after line start there: the
		// region takes the unchanged line on either side of it, on both
		// sides, so that its edges are lines both versions share.
		r := region{preStart: h.oldStart, preEnd: h.oldStart + h.oldCount - 1,
			postStart: h.newStart, postEnd: h.newStart + h.newCount - 1}
		switch {
		case h.oldCount == 0:
			r.preEnd = h.oldStart + 1
			r.postStart, r.postEnd = h.newStart-1, h.newStart+h.newCount
		case h.newCount == 0:
			r.postEnd = h.newStart + 1
			r.preStart, r.preEnd = h.oldStart-1, h.oldStart+h.oldCount
		}
		if r.preStart < 1 || r.postStart < 1 {
			r.preStart, r.postStart = r.preStart+1, r.postStart+1
		}
		// Widen the start to the top-level node (after the commit) that
		// holds it, joining the regions above that this reaches: the lines
		// above a region move by that region's own shift.
		for {
			ns := r.postStart
			for _, t := range post.tops {
				if t.start < ns && t.end >= ns {
					ns = t.start
				}
			}
			if n := len(out); n > 0 && ns <= out[n-1].postEnd+1 {
				prev := out[n-1]
				out = out[:n-1]
				r.preStart, r.postStart = prev.preStart, prev.postStart
				continue
			}
			r.preStart, r.postStart = r.preStart-(r.postStart-ns), ns
			break
		}
		// Widen the end likewise; a region below that this reaches joins
		// it when its turn comes.
		ne := r.postEnd
		for _, t := range post.tops {
			if t.start <= ne && t.end > ne {
				ne = t.end
			}
		}
		r.preEnd, r.postEnd = r.preEnd+(ne-r.postEnd), ne
		out = append(out, r)
	}
	// Widening may have joined regions; the lines between two regions must
	// be the same count on both sides.
	for i, r := range out {
		if r.preStart < 1 || r.preStart > r.preEnd+1 || r.postStart > r.postEnd+1 || r.preEnd > preLines+1 || r.postEnd > post.lines+1 {
			return nil, false
		}
		if i > 0 {
			p := out[i-1]
			if r.preStart <= p.preEnd || r.postStart <= p.postEnd || r.preStart-p.preEnd != r.postStart-p.postEnd {
				return nil, false
			}
		} else if r.preStart != r.postStart {
			return nil, false
		}
	}
	if n := len(out); n == 0 || (preLines-out[n-1].preEnd) != (post.lines-out[n-1].postEnd) {
		return nil, false
	}
	for _, s := range post.syms {
		if s.start <= 0 {
			return nil, false
		}
		for _, r := range out {
			if (s.start < r.postStart && s.end >= r.postStart) || (s.start <= r.postEnd && s.end > r.postEnd) {
				return nil, false
			}
		}
	}
	return out, true
}

// inPostRegion reports whether post lines start..end lie in a region.
func inPostRegion(regions []region, start, end int32) bool {
	for _, r := range regions {
		if start >= r.postStart && end <= r.postEnd {
			return true
		}
	}
	return false
}

// regionOf returns the region holding pre lines start..end, -1 when none.
func regionOf(regions []region, start, end int32) int {
	for i, r := range regions {
		if start >= r.preStart && end <= r.preEnd {
			return i
		}
	}
	return -1
}

// shiftAt is how many lines a post line outside the regions moves up
// before the commit: what the regions above it gained.
func shiftAt(regions []region, postLine int32) int32 {
	var d int32
	for _, r := range regions {
		if r.postEnd < postLine {
			d = r.postEnd - r.preEnd
		}
	}
	return d
}

// blankOutside returns src with the lines outside the regions emptied:
// their newlines are kept, so that lines keep their numbers, and nothing
// else, so that parsing the rest costs little more than its own length.
func blankOutside(src []byte, regions []region) []byte {
	out := make([]byte, 0, len(src)/4)
	line := int32(1)
	ri := 0
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		end := len(src)
		if j >= 0 {
			end = i + j + 1
		}
		for ri < len(regions) && regions[ri].preEnd < line {
			ri++
		}
		if ri < len(regions) && line >= regions[ri].preStart {
			out = append(out, src[i:end]...)
		} else if j >= 0 {
			out = append(out, '\n')
		}
		i = end
		line++
	}
	return out
}
