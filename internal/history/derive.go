package history

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Deriving a version from the next one. Most commits change a few
// declarations of a file; parsing and extracting the whole file before
// the commit again is what dominated the symbol pass (on prometheus, 28 ms
// a blob, half parsing and half extraction, for files of up to 7,000
// lines). The history is read newest first, so when a commit's "before"
// is needed its "after" is already parsed: for a language whose top-level
// declarations stand alone (lang.StandAlone), the version before is the
// version after with the units the hunks touch read again. Those units
// are extracted from a copy of the file whose other lines are empty, so
// that lines keep their numbers; the symbols of the other units are
// carried over, moved by the lines the commit added or removed above them.
// When anything does not line up (a syntax error, a symbol across the edge
// of the region), the whole file is read.
//
// A unit is a top-level node, or a member of the body of a top-level
// container (a class, a struct: lang.MemberBodies): a Java file
// is one class, and reading the class again for a change in one method was
// the whole file again. A change inside the body of a container is widened
// to the members it touches; the copy read keeps the container's head and
// foot (the lines before and after its members, unchanged by the commit),
// so that the members are read in their class, and the symbols that start
// there (the class itself) are taken from that read. A change that touches
// the head or the foot is widened to the whole container.

// unit is a stretch of lines a change is widened to; see above.
type unit struct {
	start, end int32
	part       unitPart
}

// unitPart says what a unit is: a whole top-level node, or the head, a
// member or the foot of a container.
type unitPart uint8

const (
	partNode unitPart = iota
	partHead
	partMember
	partFoot
)

// container is a container's lines: its head's, and its foot's.
type container struct{ head, foot lineRange }

// containers lists the containers of a table's units, ascending.
func containers(units []unit) []container {
	var out []container
	for i, u := range units {
		if u.part != partHead {
			continue
		}
		for j := i + 1; j < len(units); j++ {
			if units[j].part == partFoot {
				out = append(out, container{head: lineRange{u.start, u.end}, foot: lineRange{units[j].start, units[j].end}})
				break
			}
		}
	}
	return out
}

// derive returns the table of pre, the file before a commit, from post,
// the table after it, and the commit's hunks for the file. ok is false
// when it cannot: the caller then reads the whole file.
func (b *blobParser) derive(l lang.Language, path string, pre []byte, post *symbolTable, hunks []hunk) (t *symbolTable, ok bool, err error) {
	if b.full || post == nil || post.units == nil || len(hunks) == 0 {
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
	t, ok, whole, err := b.deriveWith(l, tx, path, pre, preLines, post, post.units, hunks)
	if whole && err == nil {
		// A container holds symbols named by their order: read the
		// containers the change touches whole.
		t, ok, _, err = b.deriveWith(l, tx, path, pre, preLines, post, collapse(post.units), hunks)
	}
	return t, ok, err
}

// collapse makes each container of units one unit.
func collapse(units []unit) []unit {
	out := make([]unit, 0, len(units))
	for _, u := range units {
		switch u.part {
		case partHead:
			out = append(out, unit{start: u.start, end: u.end, part: partNode})
		case partMember:
		case partFoot:
			out[len(out)-1].end = u.end
		default:
			out = append(out, u)
		}
	}
	return out
}

// deriveWith derives pre with the changes widened to units (post's, or
// collapsed); whole is true when a container that a change is inside of
// holds symbols named by their order (lang.Numbered), which its members
// read apart would number otherwise.
func (b *blobParser) deriveWith(l lang.Language, tx lang.TreeExtractor, path string, pre []byte, preLines int32,
	post *symbolTable, widenTo []unit, hunks []hunk) (t *symbolTable, ok, whole bool, err error) {
	conts := containers(widenTo)
	regions, kept, ok := changedRegions(post, widenTo, conts, hunks, preLines)
	if !ok {
		return nil, false, false, nil
	}
	numbered, _ := l.(lang.Numbered)
	inKept := func(cs []container, s fileSymbol) bool {
		for _, c := range cs {
			if s.start >= c.head.start && s.end <= c.foot.end {
				return true
			}
		}
		return false
	}
	if len(kept) > 0 {
		for _, s := range post.syms {
			if inKept(kept, s) && numbered != nil && numbered.NumberedName(s.name) {
				return nil, false, true, nil
			}
		}
		if !namedUnder(post.syms, func(s fileSymbol) bool { return inKept(kept, s) }) {
			return nil, false, true, nil
		}
	}
	// The lines read again, before the commit: the regions, and the head
	// and foot of each container a region is inside of.
	keep := make([]lineRange, 0, len(regions)+2*len(kept))
	var keptPre []container // kept, in lines before the commit
	for _, r := range regions {
		keep = append(keep, lineRange{r.preStart, r.preEnd})
	}
	for _, c := range kept {
		hd, fd := shiftAt(regions, c.head.start), shiftAt(regions, c.foot.start)
		pc := container{head: lineRange{c.head.start - hd, c.head.end - hd}, foot: lineRange{c.foot.start - fd, c.foot.end - fd}}
		keptPre = append(keptPre, pc)
		keep = append(keep, pc.head, pc.foot)
	}
	slices.SortFunc(keep, func(a, b lineRange) int { return int(a.start - b.start) })
	f, units, err := b.extractTree(l, tx, path, blankOutside(pre, keep))
	if err != nil || units == nil {
		return nil, false, false, err // a syntax error in a region, or lang.StandAloneTree: read it all
	}
	// Each kept container is read as one, so that the units of its members
	// read again are known.
	for _, c := range keptPre {
		if !slices.Contains(units, unit{start: c.head.start, end: c.head.end, part: partHead}) ||
			!slices.Contains(units, unit{start: c.foot.start, end: c.foot.end, part: partFoot}) {
			return nil, false, false, nil
		}
	}
	startsInKept := func(cs []container, line int32) bool {
		for _, c := range cs {
			if line >= c.head.start && line <= c.head.end || line >= c.foot.start && line <= c.foot.end {
				return true
			}
		}
		return false
	}
	read := make([]fileSymbol, 0, len(f.Symbols))
	fromKept := 0
	for i := range f.Symbols {
		s := &f.Symbols[i]
		start, end := int32(s.StartLine), int32(s.EndLine)
		switch {
		case s.StartLine <= 0:
			return nil, false, false, nil // lineless
		case numbered != nil && len(kept) > 0 && numbered.NumberedName(s.Name):
			return nil, false, true, nil
		case regionOf(regions, start, end) >= 0:
		case startsInKept(keptPre, start):
			fromKept++ // a container, or a symbol of its head or foot
		default:
			return nil, false, false, nil // outside what was read: not a unit's own
		}
		read = append(read, fileSymbol{kind: s.Kind, name: s.Name, qual: s.Qual, suffix: lang.OverloadSuffix(s),
			start: start, end: end, hidden: s.Hidden})
	}
	// The symbols of post outside the regions, moved to their lines before
	// the commit, merged with those read, in document order; the symbols
	// that start in a kept head or foot are those read.
	carried := make([]fileSymbol, 0, len(post.syms))
	for _, s := range post.syms {
		if inPostRegion(regions, s.start, s.end) {
			continue
		}
		if startsInKept(kept, s.start) {
			fromKept--
			continue
		}
		d := shiftAt(regions, s.start)
		s.start, s.end = s.start-d, s.end-d
		carried = append(carried, s)
	}
	if fromKept != 0 {
		return nil, false, false, nil // a head or a foot reads otherwise alone
	}
	if len(kept) > 0 && !namedUnder(read, func(fileSymbol) bool { return true }) {
		return nil, false, true, nil
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
	// The units: those outside the regions, moved, and those read inside.
	var newUnits []unit
	for _, u := range post.units {
		if inPostRegion(regions, u.start, u.end) {
			continue
		}
		d := shiftAt(regions, u.start)
		newUnits = append(newUnits, unit{start: u.start - d, end: u.end - d, part: u.part})
	}
	for _, u := range units {
		if regionOf(regions, u.start, u.end) >= 0 {
			newUnits = append(newUnits, u)
		}
	}
	slices.SortStableFunc(newUnits, func(a, b unit) int { return int(a.start - b.start) })
	return finishTable(syms, preLines, newUnits), true, false, nil
}

// region is one stretch of lines a commit changed, widened to whole units
// of the version after the commit: pre lines before the commit, post lines
// after it. Lines between regions are the same on both sides, moved by the
// lines the regions above them gained or lost.
type region struct {
	preStart, preEnd, postStart, postEnd int32
}

// widen returns the lines a..b widened to the units they touch, and to the
// whole container for a head or a foot, until nothing more is touched.
func widen(units []unit, conts []container, a, b int32) (int32, int32) {
	for changed := true; changed; {
		changed = false
		for _, u := range units {
			if u.start > b || u.end < a {
				continue
			}
			s, e := u.start, u.end
			if u.part == partHead || u.part == partFoot {
				for _, c := range conts {
					if c.head.start <= u.start && u.end <= c.foot.end {
						s, e = c.head.start, c.foot.end
						break
					}
				}
			}
			if s < a || e > b {
				a, b = min(a, s), max(b, e)
				changed = true
			}
		}
	}
	return a, b
}

// changedRegions returns the regions of a commit's hunks, ascending and
// apart, and the containers that regions are inside of (whose head and
// foot are read with them). ok is false when they do not line up: a
// symbol after the commit crossing the edge of a region (but a container's
// own, from its head to its foot), or regions out of bounds.
func changedRegions(post *symbolTable, units []unit, conts []container, hunks []hunk, preLines int32) ([]region, []container, bool) {
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
		if h.oldCount == 0 || h.newCount == 0 {
			// A neighbour that is the line a container's body opens or
			// closes on is read with the container's head or foot anyway:
			// taking it would widen the region to the whole container (a
			// member added last, or deleted first).
			for _, c := range conts {
				if r.postStart == c.head.end {
					r.preStart, r.postStart = r.preStart+1, r.postStart+1
				}
				if r.postEnd == c.foot.start {
					r.preEnd, r.postEnd = r.preEnd-1, r.postEnd-1
				}
			}
		}
		if r.preStart < 1 || r.postStart < 1 {
			r.preStart, r.postStart = r.preStart+1, r.postStart+1
		}
		// Widen to the units (after the commit) the region touches, joining
		// the regions above that this reaches: the lines outside a region
		// move by the shift of the regions above them.
		for {
			ns, ne := widen(units, conts, r.postStart, r.postEnd)
			if n := len(out); n > 0 && ns <= out[n-1].postEnd+1 {
				prev := out[n-1]
				out = out[:n-1]
				r.preStart, r.postStart = prev.preStart, prev.postStart
				continue
			}
			r.preStart, r.postStart = r.preStart-(r.postStart-ns), ns
			r.preEnd, r.postEnd = r.preEnd+(ne-r.postEnd), ne
			break
		}
		out = append(out, r)
	}
	// Widening may have joined regions; the lines between two regions must
	// be the same count on both sides.
	for i, r := range out {
		if r.preStart < 1 || r.preStart > r.preEnd+1 || r.postStart > r.postEnd+1 || r.preEnd > preLines+1 || r.postEnd > post.lines+1 {
			return nil, nil, false
		}
		if i > 0 {
			p := out[i-1]
			if r.preStart <= p.preEnd || r.postStart <= p.postEnd || r.preStart-p.preEnd != r.postStart-p.postEnd {
				return nil, nil, false
			}
		} else if r.preStart != r.postStart {
			return nil, nil, false
		}
	}
	if n := len(out); n == 0 || (preLines-out[n-1].preEnd) != (post.lines-out[n-1].postEnd) {
		return nil, nil, false
	}
	// The containers the regions are inside of.
	var kept []container
	holder := make([]int, len(out))
	for i, r := range out {
		holder[i] = -1
		for _, c := range conts {
			if c.head.end < r.postStart && r.postEnd < c.foot.start {
				if n := len(kept); n == 0 || kept[n-1] != c {
					kept = append(kept, c)
				}
				holder[i] = len(kept) - 1
				break
			}
		}
	}
	for _, s := range post.syms {
		if s.start <= 0 {
			return nil, nil, false
		}
		for i, r := range out {
			if !(s.start < r.postStart && s.end >= r.postStart) && !(s.start <= r.postEnd && s.end > r.postEnd) {
				continue
			}
			// Across an edge: only a symbol from the head to the foot of the
			// container the region is inside of (the container's own).
			if h := holder[i]; h < 0 || s.start < kept[h].head.start || s.start > kept[h].head.end ||
				s.end < kept[h].foot.start || s.end > kept[h].foot.end {
				return nil, nil, false
			}
		}
	}
	return out, kept, true
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

// blankOutside returns src with the lines outside keep (ascending ranges)
// emptied: their newlines are kept, so that lines keep their numbers, and
// nothing else, so that parsing the rest costs little more than its own
// length.
func blankOutside(src []byte, keep []lineRange) []byte {
	out := make([]byte, 0, len(src)/4)
	line := int32(1)
	ki := 0
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		end := len(src)
		if j >= 0 {
			end = i + j + 1
		}
		for ki < len(keep) && keep[ki].end < line {
			ki++
		}
		if ki < len(keep) && line >= keep[ki].start {
			out = append(out, src[i:end]...)
		} else if j >= 0 {
			out = append(out, '\n')
		}
		i = end
		line++
	}
	return out
}

// namedUnder reports whether every symbol of syms that in reports on (in
// document order, parents first) is named under the innermost symbol whose
// lines hold it: a symbol inside a member but not the member's (a property
// a method's `this.x = ...` makes, a Java anonymous class) belongs to its
// type, and the members of that type do not stand alone.
func namedUnder(syms []fileSymbol, in func(fileSymbol) bool) bool {
	var open []fileSymbol // the symbols holding the current one, outermost first
	for _, s := range syms {
		if s.hidden {
			continue
		}
		for len(open) > 0 && open[len(open)-1].end < s.start {
			open = open[:len(open)-1]
		}
		if n := len(open); n > 0 && in(s) {
			if o := open[n-1]; o.end >= s.end && !strings.HasPrefix(s.qual, o.qual+".") {
				return false
			}
		}
		open = append(open, s)
	}
	return true
}
