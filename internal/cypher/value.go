package cypher

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Kind is the type of a Value.
type Kind uint8

// Value kinds. The zero Value is null.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindMap
	KindNode
	KindRel
	KindPath
	kindBigInt // parser only: 9223372036854775808, legal after a minus sign
)

var kindNames = [...]string{KindNull: "Null", KindBool: "Boolean", KindInt: "Integer", KindFloat: "Float",
	KindString: "String", KindList: "List", KindMap: "Map", KindNode: "Node", KindRel: "Relationship",
	KindPath: "Path", kindBigInt: "Integer"}

func (k Kind) String() string { return kindNames[k] }

// Value is one Cypher value. Scalars and graph elements are stored inline
// (no allocation): a node is its memgraph index; a relationship is its two
// ends, type, reason, confidence and line. Lists, maps and paths are
// references; a list or map keeps its weight (limits.go) in i.
type Value struct {
	kind Kind
	et   graph.EdgeType // relationship: edge type
	line int32          // relationship: line
	i    int64          // bool, int, node id; relationship: src | dst<<32
	f    float64        // float; relationship: confidence as stored (a float32)
	s    string         // string; relationship: reason
	ref  any            // []Value, *Map, *Path
}

// Null is the null value.
var Null = Value{}

// Constructors.
func BoolValue(b bool) Value {
	if b {
		return Value{kind: KindBool, i: 1}
	}
	return Value{kind: KindBool}
}
func IntValue(i int64) Value     { return Value{kind: KindInt, i: i} }
func FloatValue(f float64) Value { return Value{kind: KindFloat, f: f} }
func StringValue(s string) Value { return Value{kind: KindString, s: s} }
func ListValue(l []Value) Value  { return Value{kind: KindList, ref: l, i: listWeight(l)} }
func NodeValue(n memgraph.NodeID) Value {
	return Value{kind: KindNode, i: int64(n)}
}

// relValue makes a relationship value from its source, target and the
// adjacency entry that holds its attributes.
func relValue(g *memgraph.Graph, src, dst memgraph.NodeID, e memgraph.Edge) Value {
	return Value{kind: KindRel, i: int64(src) | int64(dst)<<32, et: e.Type, line: e.Line,
		f: float64(e.Confidence), s: string(g.Reason(e))}
}

// relConfidence is a relationship's confidence: the stored float32 widened
// to the float64 with the same shortest decimal form (0.95, not
// 0.949999988079071). Converting costs a formatting and a parse, so it
// happens only when the property is read, and the last few are cached.
func (v Value) relConfidence() float64 {
	c := float32(v.f)
	for i := range confidenceCache {
		e := confidenceCache[i].Load()
		if e != nil && e.from == c {
			return e.to
		}
	}
	f, err := strconv.ParseFloat(strconv.FormatFloat(float64(c), 'g', -1, 32), 64)
	if err != nil {
		f = float64(c)
	}
	slot := int(math.Float32bits(c)) % len(confidenceCache)
	confidenceCache[slot].Store(&confidenceEntry{from: c, to: f})
	return f
}

type confidenceEntry struct {
	from float32
	to   float64
}

// confidenceCache holds recent conversions; reasons give few distinct
// confidences. Safe for concurrent queries.
var confidenceCache [16]atomic.Pointer[confidenceEntry]

// Kind returns the value's type.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == KindNull }

// Bool returns a boolean's value.
func (v Value) Bool() bool { return v.i != 0 }

// Int returns an integer's value.
func (v Value) Int() int64 { return v.i }

// Float returns a float's value.
func (v Value) Float() float64 { return v.f }

// Str returns a string's value.
func (v Value) Str() string { return v.s }

// List returns a list's elements.
func (v Value) List() []Value {
	l, _ := v.ref.([]Value)
	return l
}

// Node returns a node's index.
func (v Value) Node() memgraph.NodeID { return memgraph.NodeID(v.i) }

// Map returns a map.
func (v Value) Map() *Map {
	m, _ := v.ref.(*Map)
	return m
}

// Path returns a path.
func (v Value) Path() *Path {
	p, _ := v.ref.(*Path)
	return p
}

// RelSrc and RelDst return a relationship's ends.
func (v Value) RelSrc() memgraph.NodeID { return memgraph.NodeID(uint32(v.i)) }
func (v Value) RelDst() memgraph.NodeID { return memgraph.NodeID(uint32(v.i >> 32)) }

// RelType returns a relationship's edge type.
func (v Value) RelType() graph.EdgeType { return v.et }

// relKey identifies a relationship: the graph has at most one edge of a
// type between two nodes.
type relKey struct {
	ends int64
	et   graph.EdgeType
}

func (v Value) relKey() relKey { return relKey{v.i, v.et} }

// number returns a numeric value as a float, and whether it is numeric.
func (v Value) number() (float64, bool) {
	switch v.kind {
	case KindInt:
		return float64(v.i), true
	case KindFloat:
		return v.f, true
	}
	return 0, false
}

// Map is a Cypher map: keys sorted, so that output is deterministic.
type Map struct {
	Keys []string
	Vals []Value
}

// MapValue builds a map value from keys and values; later duplicates win.
func MapValue(keys []string, vals []Value) Value {
	m := &Map{}
	for i, k := range keys {
		m.Set(k, vals[i])
	}
	return mapValue(m)
}

// listValueOf wraps a list whose weight the caller has summed.
func listValueOf(l []Value, w int64) Value { return Value{kind: KindList, ref: l, i: w} }

// mapValue wraps a map that is complete: it is not changed afterwards.
func mapValue(m *Map) Value { return Value{kind: KindMap, ref: m, i: mapWeight(m)} }

// Get returns the value of key, or null.
func (m *Map) Get(key string) (Value, bool) {
	i := sort.SearchStrings(m.Keys, key)
	if i < len(m.Keys) && m.Keys[i] == key {
		return m.Vals[i], true
	}
	return Null, false
}

// Set sets key, keeping keys sorted.
func (m *Map) Set(key string, v Value) {
	i := sort.SearchStrings(m.Keys, key)
	if i < len(m.Keys) && m.Keys[i] == key {
		m.Vals[i] = v
		return
	}
	m.Keys = slices.Insert(m.Keys, i, key)
	m.Vals = slices.Insert(m.Vals, i, v)
}

// Path is a walk: Nodes[i] and Nodes[i+1] are joined by Rels[i].
type Path struct {
	Nodes []memgraph.NodeID
	Rels  []Value
}

// PathValue wraps a path.
func PathValue(p *Path) Value { return Value{kind: KindPath, ref: p} }

// typeName names v's type for error messages.
func typeName(v Value) string { return v.kind.String() }

// FromGo converts a Go value (as decoded from JSON: nil, bool, float64,
// json.Number, string, []any, map[string]any, and Go integers) into a
// Value, for query parameters.
func FromGo(x any) (Value, error) {
	switch t := x.(type) {
	case nil:
		return Null, nil
	case Value:
		return t, nil
	case bool:
		return BoolValue(t), nil
	case int:
		return IntValue(int64(t)), nil
	case int32:
		return IntValue(int64(t)), nil
	case int64:
		return IntValue(t), nil
	case float32:
		return FloatValue(float64(t)), nil
	case float64:
		return FloatValue(t), nil
	case interface{ Int64() (int64, error) }:
		if i, err := t.Int64(); err == nil {
			return IntValue(i), nil
		}
		if f, ok := t.(interface{ Float64() (float64, error) }); ok {
			v, err := f.Float64()
			if err != nil {
				return Null, err
			}
			return FloatValue(v), nil
		}
		return Null, fmt.Errorf("unsupported number %v", t)
	case string:
		return StringValue(t), nil
	case []string:
		out := make([]Value, len(t))
		for i, s := range t {
			out[i] = StringValue(s)
		}
		return ListValue(out), nil
	case []any:
		out := make([]Value, len(t))
		for i, e := range t {
			v, err := FromGo(e)
			if err != nil {
				return Null, err
			}
			out[i] = v
		}
		return ListValue(out), nil
	case map[string]any:
		m := &Map{}
		for k, e := range t {
			v, err := FromGo(e)
			if err != nil {
				return Null, err
			}
			m.Set(k, v)
		}
		return mapValue(m), nil
	}
	return Null, fmt.Errorf("unsupported parameter type %T", x)
}
