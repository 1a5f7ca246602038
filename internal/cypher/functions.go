package cypher

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gitnexus.dev/gitnexus/internal/graph"
)

// funcDef is a scalar function: its name as documented, the number of
// arguments it takes (max -1: any), and its implementation. Unless a
// function says otherwise, a null argument gives null.
type funcDef struct {
	name     string
	min, max int
	keepNull bool // called with null arguments (coalesce)
	eval     func(ec *execCtx, args []Value, pos Pos) (Value, error)
}

var functions = map[string]*funcDef{}

func def(name string, min, max int, eval func(ec *execCtx, args []Value, pos Pos) (Value, error)) {
	functions[strings.ToLower(name)] = &funcDef{name: name, min: min, max: max, eval: eval}
}

// functionNames lists the scalar and aggregate functions, for messages and
// the schema text.
func functionNames() []string {
	var out []string
	for _, f := range functions {
		out = append(out, f.name)
	}
	for a := range aggregateNames {
		out = append(out, a)
	}
	out = append(out, "exists")
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i]) < strings.ToLower(out[j]) })
	return out
}

func init() {
	def("id", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindNode:
			return IntValue(a[0].i), nil
		case KindRel:
			i, _ := ec.g.EdgeIndex(a[0].RelSrc(), a[0].RelDst(), a[0].et)
			return IntValue(int64(i)), nil
		}
		return Null, typeErr(pos, "id() expects a node or a relationship, got %s", typeName(a[0]))
	})
	def("elementId", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindNode:
			return StringValue(ec.g.Nodes[a[0].Node()].ID), nil
		case KindRel:
			return StringValue(ec.g.Nodes[a[0].RelSrc()].ID + "-" + a[0].et.String() + "->" + ec.g.Nodes[a[0].RelDst()].ID), nil
		}
		return Null, typeErr(pos, "elementId() expects a node or a relationship, got %s", typeName(a[0]))
	})
	def("labels", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindNode {
			return Null, typeErr(pos, "labels() expects a node, got %s", typeName(a[0]))
		}
		return ListValue([]Value{StringValue(ec.g.Nodes[a[0].Node()].Kind.String())}), nil
	})
	def("type", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindRel {
			return Null, typeErr(pos, "type() expects a relationship, got %s", typeName(a[0]))
		}
		return StringValue(a[0].et.String()), nil
	})
	def("properties", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		return propertiesOf(ec, a[0], pos)
	})
	def("keys", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindNode:
			return ListValue(ec.props.nodeKeys(a[0].Node())), nil
		case KindRel:
			return ListValue(relKeys(ec.props.g, a[0])), nil
		case KindMap:
			m := a[0].Map()
			if err := ec.ticks(len(m.Keys)); err != nil {
				return Null, err
			}
			out := make([]Value, len(m.Keys))
			for i, k := range m.Keys {
				out[i] = StringValue(k)
			}
			return ListValue(out), nil
		}
		return Null, typeErr(pos, "keys() expects a node, a relationship or a map, got %s", typeName(a[0]))
	})
	def("size", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindList:
			return IntValue(int64(len(a[0].List()))), nil
		case KindString:
			if err := ec.work(weight(a[0])); err != nil {
				return Null, err
			}
			return IntValue(int64(utf8.RuneCountInString(a[0].s))), nil
		case KindMap:
			return IntValue(int64(len(a[0].Map().Keys))), nil
		}
		return Null, typeErr(pos, "size() expects a list or a string, got %s", typeName(a[0]))
	})
	def("length", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindPath:
			return IntValue(int64(len(a[0].Path().Rels))), nil
		case KindList:
			return IntValue(int64(len(a[0].List()))), nil
		case KindString:
			if err := ec.work(weight(a[0])); err != nil {
				return Null, err
			}
			return IntValue(int64(utf8.RuneCountInString(a[0].s))), nil
		}
		return Null, typeErr(pos, "length() expects a path, got %s", typeName(a[0]))
	})
	functions["coalesce"] = &funcDef{name: "coalesce", min: 1, max: -1, keepNull: true,
		eval: func(_ *execCtx, a []Value, _ Pos) (Value, error) {
			for _, v := range a {
				if !v.IsNull() {
					return v, nil
				}
			}
			return Null, nil
		}}
	def("head", 1, 1, listFn("head", func(l []Value) Value {
		if len(l) == 0 {
			return Null
		}
		return l[0]
	}))
	def("last", 1, 1, listFn("last", func(l []Value) Value {
		if len(l) == 0 {
			return Null
		}
		return l[len(l)-1]
	}))
	def("tail", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindList {
			return Null, typeErr(pos, "tail() expects a list, got %s", typeName(a[0]))
		}
		l := a[0].List()
		if len(l) == 0 {
			return ListValue([]Value{}), nil
		}
		if err := ec.build(float64(weight(a[0])), "tail()"); err != nil {
			return Null, err
		}
		return listValueOf(append([]Value{}, l[1:]...), weight(a[0])-weight(l[0])), nil
	})
	def("reverse", 1, 1, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindList:
			l := a[0].List()
			if err := ec.build(float64(weight(a[0])), "reverse()"); err != nil {
				return Null, err
			}
			out := make([]Value, len(l))
			for i, v := range l {
				out[len(l)-1-i] = v
			}
			return listValueOf(out, weight(a[0])), nil
		case KindString:
			s := a[0].s
			if err := ec.build(float64(weight(a[0])), "reverse()"); err != nil {
				return Null, err
			}
			var b strings.Builder
			b.Grow(len(s))
			for i := len(s); i > 0; {
				r, n := utf8.DecodeLastRuneInString(s[:i])
				if r == utf8.RuneError && n == 1 {
					b.WriteByte(s[i-1]) // keep a byte that is not UTF-8 as it is
				} else {
					b.WriteString(s[i-n : i])
				}
				i -= n
			}
			return StringValue(b.String()), nil
		}
		return Null, typeErr(pos, "reverse() expects a list or a string, got %s", typeName(a[0]))
	})
	def("range", 2, 3, rangeFn)
	def("toLower", 1, 1, stringFn("toLower", strings.ToLower))
	def("toUpper", 1, 1, stringFn("toUpper", strings.ToUpper))
	def("lower", 1, 1, stringFn("lower", strings.ToLower))
	def("upper", 1, 1, stringFn("upper", strings.ToUpper))
	def("trim", 1, 1, stringFn("trim", func(s string) string { return strings.TrimFunc(s, unicode.IsSpace) }))
	def("ltrim", 1, 1, stringFn("ltrim", func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }))
	def("rtrim", 1, 1, stringFn("rtrim", func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }))
	def("split", 2, 2, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindString || a[1].kind != KindString {
			return Null, typeErr(pos, "split() expects two strings, got %s and %s", typeName(a[0]), typeName(a[1]))
		}
		s, sep := a[0].s, a[1].s
		n := 1
		if s != "" {
			if sep == "" {
				n = utf8.RuneCountInString(s)
			} else {
				n = strings.Count(s, sep) + 1
			}
		}
		// The parts share the string's bytes; each is a value of its own.
		if err := ec.build(float64(valueBytes)*float64(n+1)+float64(len(s)), "split()"); err != nil {
			return Null, err
		}
		parts := []string{""}
		if s != "" {
			parts = strings.Split(s, sep)
		}
		out := make([]Value, len(parts))
		for i, p := range parts {
			out[i] = StringValue(p)
		}
		return ListValue(out), nil
	})
	// substring, left and right count in characters (runes) and cut the
	// string where they start, without a copy of it as runes.
	def("substring", 2, 3, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindString || a[1].kind != KindInt || (len(a) == 3 && a[2].kind != KindInt) {
			return Null, typeErr(pos, "substring() expects (string, integer[, integer])")
		}
		s, start := a[0].s, a[1].i
		if start < 0 {
			return Null, argErr(pos, "substring() start must not be negative, got %d", start)
		}
		if len(a) == 3 && a[2].i < 0 {
			return Null, argErr(pos, "substring() length must not be negative, got %d", a[2].i)
		}
		if err := ec.work(weight(a[0])); err != nil {
			return Null, err
		}
		s = s[runeOffset(s, start):]
		if len(a) == 3 {
			s = s[:runeOffset(s, a[2].i)]
		}
		return StringValue(s), nil
	})
	def("left", 2, 2, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindString || a[1].kind != KindInt || a[1].i < 0 {
			return Null, typeErr(pos, "left() expects (string, non-negative integer)")
		}
		if err := ec.work(weight(a[0])); err != nil {
			return Null, err
		}
		return StringValue(a[0].s[:runeOffset(a[0].s, a[1].i)]), nil
	})
	def("right", 2, 2, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindString || a[1].kind != KindInt || a[1].i < 0 {
			return Null, typeErr(pos, "right() expects (string, non-negative integer)")
		}
		if err := ec.work(weight(a[0])); err != nil {
			return Null, err
		}
		s := a[0].s
		return StringValue(s[runeOffset(s, max(int64(utf8.RuneCountInString(s))-a[1].i, 0)):]), nil
	})
	def("replace", 3, 3, func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		for _, v := range a {
			if v.kind != KindString {
				return Null, typeErr(pos, "replace() expects three strings, got %s", typeName(v))
			}
		}
		s, old, repl := a[0].s, a[1].s, a[2].s
		var n int // the replacements: an empty search string matches around every character
		if old == "" {
			n = utf8.RuneCountInString(s) + 1
		} else {
			n = strings.Count(s, old)
		}
		size := float64(len(s)) + float64(n)*(float64(len(repl))-float64(len(old)))
		if err := ec.build(float64(valueBytes)+size, "replace()"); err != nil {
			return Null, err
		}
		return StringValue(strings.ReplaceAll(s, old, repl)), nil
	})
	def("toString", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindString:
			return a[0], nil
		case KindInt, KindFloat, KindBool:
			return StringValue(literalString(a[0])), nil
		}
		return Null, typeErr(pos, "toString() expects a string, number or boolean, got %s", typeName(a[0]))
	})
	def("toInteger", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		v := a[0]
		switch v.kind {
		case KindInt:
			return v, nil
		case KindFloat:
			return floatToInt(v.f), nil
		case KindBool:
			return IntValue(v.i), nil
		case KindString:
			s := strings.TrimSpace(v.s)
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return IntValue(i), nil
			}
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return floatToInt(f), nil
			}
			return Null, nil
		}
		return Null, typeErr(pos, "toInteger() expects a string, number or boolean, got %s", typeName(v))
	})
	def("toFloat", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		v := a[0]
		switch v.kind {
		case KindFloat:
			return v, nil
		case KindInt:
			return FloatValue(float64(v.i)), nil
		case KindString:
			if f, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64); err == nil {
				return FloatValue(f), nil
			}
			return Null, nil
		}
		return Null, typeErr(pos, "toFloat() expects a string or a number, got %s", typeName(v))
	})
	def("toBoolean", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		v := a[0]
		switch v.kind {
		case KindBool:
			return v, nil
		case KindInt:
			return BoolValue(v.i != 0), nil
		case KindString:
			switch strings.ToLower(strings.TrimSpace(v.s)) {
			case "true":
				return BoolValue(true), nil
			case "false":
				return BoolValue(false), nil
			}
			return Null, nil
		}
		return Null, typeErr(pos, "toBoolean() expects a string, integer or boolean, got %s", typeName(v))
	})
	def("startNode", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindRel {
			return Null, typeErr(pos, "startNode() expects a relationship, got %s", typeName(a[0]))
		}
		return NodeValue(a[0].RelSrc()), nil
	})
	def("endNode", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindRel {
			return Null, typeErr(pos, "endNode() expects a relationship, got %s", typeName(a[0]))
		}
		return NodeValue(a[0].RelDst()), nil
	})
	def("nodes", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindPath {
			return Null, typeErr(pos, "nodes() expects a path, got %s", typeName(a[0]))
		}
		p := a[0].Path()
		out := make([]Value, len(p.Nodes))
		for i, n := range p.Nodes {
			out[i] = NodeValue(n)
		}
		return ListValue(out), nil
	})
	def("relationships", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindPath {
			return Null, typeErr(pos, "relationships() expects a path, got %s", typeName(a[0]))
		}
		return ListValue(append([]Value{}, a[0].Path().Rels...)), nil
	})
	def("abs", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindInt:
			if a[0].i == math.MinInt64 {
				return Null, argErr(pos, "integer overflow in abs()")
			}
			if a[0].i < 0 {
				return IntValue(-a[0].i), nil
			}
			return a[0], nil
		case KindFloat:
			return FloatValue(math.Abs(a[0].f)), nil
		}
		return Null, typeErr(pos, "abs() expects a number, got %s", typeName(a[0]))
	})
	def("ceil", 1, 1, mathFn("ceil", math.Ceil))
	def("floor", 1, 1, mathFn("floor", math.Floor))
	def("round", 1, 1, mathFn("round", func(f float64) float64 { return math.Floor(f + 0.5) }))
	def("sqrt", 1, 1, mathFn("sqrt", math.Sqrt))
	def("sign", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		f, ok := a[0].number()
		if !ok {
			return Null, typeErr(pos, "sign() expects a number, got %s", typeName(a[0]))
		}
		switch {
		case f > 0:
			return IntValue(1), nil
		case f < 0:
			return IntValue(-1), nil
		}
		return IntValue(0), nil
	})
	def("isEmpty", 1, 1, func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		switch a[0].kind {
		case KindList:
			return BoolValue(len(a[0].List()) == 0), nil
		case KindString:
			return BoolValue(a[0].s == ""), nil
		case KindMap:
			return BoolValue(len(a[0].Map().Keys) == 0), nil
		}
		return Null, typeErr(pos, "isEmpty() expects a list, a string or a map, got %s", typeName(a[0]))
	})
}

func listFn(name string, f func([]Value) Value) func(*execCtx, []Value, Pos) (Value, error) {
	return func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindList {
			return Null, typeErr(pos, "%s() expects a list, got %s", name, typeName(a[0]))
		}
		return f(a[0].List()), nil
	}
}

// stringFn makes a function of one string that returns a string of about
// its size (case changes may add a few bytes; trims take some away).
func stringFn(name string, f func(string) string) func(*execCtx, []Value, Pos) (Value, error) {
	what := name + "()"
	return func(ec *execCtx, a []Value, pos Pos) (Value, error) {
		if a[0].kind != KindString {
			return Null, typeErr(pos, "%s() expects a string, got %s", name, typeName(a[0]))
		}
		if err := ec.build(float64(weight(a[0])), what); err != nil {
			return Null, err
		}
		return StringValue(f(a[0].s)), nil
	}
}

// runeOffset is the byte offset of the n-th character of s, or len(s)
// when s has no more than n.
func runeOffset(s string, n int64) int {
	if n <= 0 {
		return 0
	}
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

func mathFn(name string, f func(float64) float64) func(*execCtx, []Value, Pos) (Value, error) {
	return func(_ *execCtx, a []Value, pos Pos) (Value, error) {
		x, ok := a[0].number()
		if !ok {
			return Null, typeErr(pos, "%s() expects a number, got %s", name, typeName(a[0]))
		}
		return FloatValue(f(x)), nil
	}
}

// floatToInt truncates toward zero; NaN and values out of range are null.
func floatToInt(f float64) Value {
	if math.IsNaN(f) || f >= 9.223372036854775807e18 || f < -9.223372036854775808e18 {
		return Null
	}
	return IntValue(int64(f))
}

func rangeFn(ec *execCtx, a []Value, pos Pos) (Value, error) {
	for _, v := range a {
		if v.kind != KindInt {
			return Null, typeErr(pos, "range() expects integers, got %s", typeName(v))
		}
	}
	lo, hi, step := a[0].i, a[1].i, int64(1)
	if len(a) == 3 {
		step = a[2].i
	}
	if step == 0 {
		return Null, argErr(pos, "range() step must not be zero")
	}
	var n float64
	if (step > 0 && hi >= lo) || (step < 0 && hi <= lo) {
		n = math.Floor((float64(hi)-float64(lo))/float64(step)) + 1
	}
	w := (n + 1) * float64(valueBytes)
	if err := ec.build(w, "range()"); err != nil {
		return Null, err
	}
	out := make([]Value, 0, int(n))
	for i, x := 0, lo; i < int(n); i, x = i+1, x+step {
		out = append(out, IntValue(x))
	}
	return listValueOf(out, int64(w)), nil
}

// propertiesOf is properties(x): every property of a node or relationship
// as a map; a map is returned as is.
func propertiesOf(ec *execCtx, v Value, pos Pos) (Value, error) {
	switch v.kind {
	case KindNull:
		return Null, nil
	case KindNode:
		return ec.props.nodeMap(v.Node())
	case KindRel:
		return relMap(ec.props.g, v), nil
	case KindMap:
		return v, nil
	}
	return Null, typeErr(pos, "properties() expects a node, a relationship or a map, got %s", typeName(v))
}

// labelNames lists the labels of the graph.
func labelNames() []string {
	var out []string
	for _, k := range graph.AllKinds() {
		out = append(out, k.String())
	}
	return out
}
