package cypher

import (
	"cmp"
	"encoding/binary"
	"math"
	"strings"
)

// tri is a three-valued truth: Cypher's true, false and null.
type tri int8

const (
	triFalse tri = iota
	triTrue
	triNull
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (t tri) value() Value {
	switch t {
	case triTrue:
		return BoolValue(true)
	case triFalse:
		return BoolValue(false)
	}
	return Null
}

// equal is Cypher's `=`: null when either side is null (or a list/map
// element comparison is), false across types (integers and floats compare
// by value).
func equal(a, b Value) tri {
	if a.kind == KindNull || b.kind == KindNull {
		return triNull
	}
	if an, ok := a.number(); ok {
		bn, ok := b.number()
		if !ok {
			return triFalse
		}
		if a.kind == KindInt && b.kind == KindInt {
			return triOf(a.i == b.i)
		}
		return triOf(an == bn)
	}
	if a.kind != b.kind {
		return triFalse
	}
	switch a.kind {
	case KindBool, KindNode:
		return triOf(a.i == b.i)
	case KindString:
		return triOf(a.s == b.s)
	case KindRel:
		return triOf(a.relKey() == b.relKey())
	case KindList:
		return equalLists(a.List(), b.List())
	case KindMap:
		am, bm := a.Map(), b.Map()
		if len(am.Keys) != len(bm.Keys) {
			return triFalse
		}
		for i, k := range am.Keys {
			if bm.Keys[i] != k {
				return triFalse
			}
		}
		return equalLists(am.Vals, bm.Vals)
	case KindPath:
		ap, bp := a.Path(), b.Path()
		if len(ap.Rels) != len(bp.Rels) || ap.Nodes[0] != bp.Nodes[0] {
			return triFalse
		}
		for i := range ap.Rels {
			if ap.Rels[i].relKey() != bp.Rels[i].relKey() {
				return triFalse
			}
		}
		return triTrue
	}
	return triFalse
}

func equalLists(a, b []Value) tri {
	if len(a) != len(b) {
		return triFalse
	}
	res := triTrue
	for i := range a {
		switch equal(a[i], b[i]) {
		case triFalse:
			return triFalse
		case triNull:
			res = triNull
		}
	}
	return res
}

// compareResult is the outcome of an ordering comparison (<, <=, >, >=).
type compareResult int8

const (
	cmpLess compareResult = iota - 1
	cmpEqual
	cmpGreater
	cmpNull // incomparable or null: the comparison is null
	cmpNaN  // a NaN is involved: every comparison is false
)

// compare orders two values for <, <=, >, >=: numbers with numbers,
// strings with strings, booleans with booleans, lists element-wise;
// anything else (or null) is incomparable.
func compare(a, b Value) compareResult {
	if a.kind == KindNull || b.kind == KindNull {
		return cmpNull
	}
	if an, ok := a.number(); ok {
		bn, ok := b.number()
		if !ok {
			return cmpNull
		}
		if a.kind == KindInt && b.kind == KindInt {
			return compareResult(cmp.Compare(a.i, b.i))
		}
		if math.IsNaN(an) || math.IsNaN(bn) {
			return cmpNaN
		}
		return compareResult(cmp.Compare(an, bn))
	}
	if a.kind != b.kind {
		return cmpNull
	}
	switch a.kind {
	case KindString:
		return compareResult(strings.Compare(a.s, b.s))
	case KindBool:
		return compareResult(cmp.Compare(a.i, b.i))
	case KindList:
		al, bl := a.List(), b.List()
		for i := 0; i < len(al) && i < len(bl); i++ {
			if c := compare(al[i], bl[i]); c != cmpEqual {
				return c
			}
		}
		return compareResult(cmp.Compare(len(al), len(bl)))
	}
	return cmpNull
}

// typeRank orders types for ORDER BY: maps, nodes, relationships, lists,
// paths, strings, booleans, numbers, then null.
func typeRank(k Kind) int {
	switch k {
	case KindMap:
		return 0
	case KindNode:
		return 1
	case KindRel:
		return 2
	case KindList:
		return 3
	case KindPath:
		return 4
	case KindString:
		return 5
	case KindBool:
		return 6
	case KindInt, KindFloat:
		return 7
	}
	return 8
}

// order is the total order of ORDER BY, min and max: across types by
// typeRank, numbers by value with NaN after every other number, lists
// element by element (a prefix first), maps by size, then keys, then
// values, nodes by index, relationships by their ends and type.
func order(a, b Value) int {
	ra, rb := typeRank(a.kind), typeRank(b.kind)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch a.kind {
	case KindNull:
		return 0
	case KindInt, KindFloat:
		if a.kind == KindInt && b.kind == KindInt {
			return cmp.Compare(a.i, b.i)
		}
		an, _ := a.number()
		bn, _ := b.number()
		switch {
		case math.IsNaN(an) && math.IsNaN(bn):
			return 0
		case math.IsNaN(an):
			return 1
		case math.IsNaN(bn):
			return -1
		}
		return cmp.Compare(an, bn)
	case KindString:
		return strings.Compare(a.s, b.s)
	case KindBool, KindNode:
		return cmp.Compare(a.i, b.i)
	case KindRel:
		return cmp.Or(cmp.Compare(a.RelSrc(), b.RelSrc()), cmp.Compare(a.RelDst(), b.RelDst()), cmp.Compare(a.et, b.et))
	case KindList:
		return orderLists(a.List(), b.List())
	case KindMap:
		am, bm := a.Map(), b.Map()
		if c := cmp.Compare(len(am.Keys), len(bm.Keys)); c != 0 {
			return c
		}
		for i := range am.Keys {
			if c := strings.Compare(am.Keys[i], bm.Keys[i]); c != 0 {
				return c
			}
		}
		return orderLists(am.Vals, bm.Vals)
	case KindPath:
		ap, bp := a.Path(), b.Path()
		if c := cmp.Compare(len(ap.Rels), len(bp.Rels)); c != 0 {
			return c
		}
		for i := range ap.Nodes {
			if c := cmp.Compare(ap.Nodes[i], bp.Nodes[i]); c != 0 {
				return c
			}
		}
		return orderLists(ap.Rels, bp.Rels)
	}
	return 0
}

func orderLists(a, b []Value) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := order(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// appendKey appends an encoding of v under which two values are the same
// exactly when DISTINCT and grouping treat them as one: null is one value,
// an integer and a float of the same value are one, lists and maps compare
// element by element.
func appendKey(b []byte, v Value) []byte {
	switch v.kind {
	case KindNull:
		return append(b, 'z')
	case KindBool:
		return append(b, 'b', byte(v.i))
	case KindInt:
		b = append(b, 'i')
		return binary.LittleEndian.AppendUint64(b, uint64(v.i))
	case KindFloat:
		if v.f == math.Trunc(v.f) && math.Abs(v.f) < 1<<63 {
			b = append(b, 'i')
			return binary.LittleEndian.AppendUint64(b, uint64(int64(v.f)))
		}
		f := v.f
		if math.IsNaN(f) {
			f = math.NaN()
		}
		b = append(b, 'f')
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	case KindString:
		b = append(b, 's')
		b = binary.AppendUvarint(b, uint64(len(v.s)))
		return append(b, v.s...)
	case KindNode:
		b = append(b, 'n')
		return binary.LittleEndian.AppendUint32(b, uint32(v.i))
	case KindRel:
		b = append(b, 'r', byte(v.et))
		return binary.LittleEndian.AppendUint64(b, uint64(v.i))
	case KindList:
		l := v.List()
		b = append(b, 'l')
		b = binary.AppendUvarint(b, uint64(len(l)))
		for _, e := range l {
			b = appendKey(b, e)
		}
		return b
	case KindMap:
		m := v.Map()
		b = append(b, 'm')
		b = binary.AppendUvarint(b, uint64(len(m.Keys)))
		for i, k := range m.Keys {
			b = binary.AppendUvarint(b, uint64(len(k)))
			b = append(b, k...)
			b = appendKey(b, m.Vals[i])
		}
		return b
	case KindPath:
		p := v.Path()
		b = append(b, 'p')
		b = binary.LittleEndian.AppendUint32(b, uint32(p.Nodes[0]))
		b = binary.AppendUvarint(b, uint64(len(p.Rels)))
		for _, r := range p.Rels {
			b = appendKey(b, r)
		}
		return b
	}
	return b
}
