package cypher

import (
	"math"
	"strings"
)

// logic combines two truths with AND, OR or XOR (three-valued), or negates
// the first with NOT.
func logic(op string, a, b tri) tri {
	switch op {
	case "NOT":
		switch a {
		case triTrue:
			return triFalse
		case triFalse:
			return triTrue
		}
		return triNull
	case "AND":
		if a == triFalse || b == triFalse {
			return triFalse
		}
		if a == triNull || b == triNull {
			return triNull
		}
		return triTrue
	case "OR":
		if a == triTrue || b == triTrue {
			return triTrue
		}
		if a == triNull || b == triNull {
			return triNull
		}
		return triFalse
	case "XOR":
		if a == triNull || b == triNull {
			return triNull
		}
		return triOf(a != b)
	}
	return triNull
}

// comparison evaluates <, >, <=, >=.
func comparison(op string, a, b Value) Value {
	c := compare(a, b)
	switch c {
	case cmpNull:
		return Null
	case cmpNaN:
		return BoolValue(false)
	}
	switch op {
	case "<":
		return BoolValue(c < 0)
	case ">":
		return BoolValue(c > 0)
	case "<=":
		return BoolValue(c <= 0)
	}
	return BoolValue(c >= 0)
}

// arith evaluates + - * / % ^. Integers stay integers (overflow and
// division by zero are errors); a float on either side makes a float; +
// also concatenates strings (with a number or boolean turned into text)
// and lists.
//
// A concatenation is checked against the query's memory budget before it
// is allocated, and counted as work by its size.
func arith(ec *execCtx, op string, a, b Value, pos Pos) (Value, error) {
	if a.kind == KindNull || b.kind == KindNull {
		return Null, nil
	}
	if op == "+" {
		switch {
		case a.kind == KindList || b.kind == KindList:
			w := weight(a) + weight(b)
			if a.kind == KindList && b.kind == KindList {
				w -= valueBytes // one list header between them
			}
			if err := ec.build(float64(w), "list concatenation"); err != nil {
				return Null, err
			}
			var out []Value
			switch {
			case a.kind == KindList && b.kind == KindList:
				out = append(append(make([]Value, 0, len(a.List())+len(b.List())), a.List()...), b.List()...)
			case a.kind == KindList:
				out = append(append(make([]Value, 0, len(a.List())+1), a.List()...), b)
			default:
				out = append(append(make([]Value, 0, len(b.List())+1), a), b.List()...)
			}
			return listValueOf(out, w), nil
		case a.kind == KindString || b.kind == KindString:
			as, aok := concatText(a)
			bs, bok := concatText(b)
			if aok && bok {
				if err := ec.build(float64(valueBytes+int64(len(as))+int64(len(bs))), "string concatenation"); err != nil {
					return Null, err
				}
				return StringValue(as + bs), nil
			}
		}
	}
	if a.kind == KindInt && b.kind == KindInt && op != "^" {
		x, y := a.i, b.i
		switch op {
		case "+":
			r := x + y
			if (r > x) != (y > 0) {
				return Null, argErr(pos, "integer overflow: %d + %d", x, y)
			}
			return IntValue(r), nil
		case "-":
			r := x - y
			if (r < x) != (y > 0) {
				return Null, argErr(pos, "integer overflow: %d - %d", x, y)
			}
			return IntValue(r), nil
		case "*":
			if x != 0 && y != 0 {
				r := x * y
				if r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
					return Null, argErr(pos, "integer overflow: %d * %d", x, y)
				}
				return IntValue(r), nil
			}
			return IntValue(0), nil
		case "/", "%":
			if y == 0 {
				return Null, argErr(pos, "division by zero")
			}
			if x == math.MinInt64 && y == -1 {
				if op == "%" {
					return IntValue(0), nil
				}
				return Null, argErr(pos, "integer overflow: %d / %d", x, y)
			}
			if op == "/" {
				return IntValue(x / y), nil
			}
			return IntValue(x % y), nil
		}
	}
	x, xok := a.number()
	y, yok := b.number()
	if !xok || !yok {
		return Null, typeErr(pos, "cannot apply %s to %s and %s", op, typeName(a), typeName(b))
	}
	switch op {
	case "+":
		return FloatValue(x + y), nil
	case "-":
		return FloatValue(x - y), nil
	case "*":
		return FloatValue(x * y), nil
	case "/":
		return FloatValue(x / y), nil
	case "%":
		return FloatValue(math.Mod(x, y)), nil
	}
	return FloatValue(math.Pow(x, y)), nil
}

// concatText is the text of a value in string concatenation.
func concatText(v Value) (string, bool) {
	switch v.kind {
	case KindString:
		return v.s, true
	case KindInt, KindFloat, KindBool:
		return literalString(v), true
	}
	return "", false
}

func unaryArith(v Value, neg bool, pos Pos) (Value, error) {
	switch v.kind {
	case KindNull:
		return Null, nil
	case KindInt:
		if !neg {
			return v, nil
		}
		if v.i == math.MinInt64 {
			return Null, argErr(pos, "integer overflow: -(%d)", v.i)
		}
		return IntValue(-v.i), nil
	case KindFloat:
		if neg {
			return FloatValue(-v.f), nil
		}
		return v, nil
	}
	op := "+"
	if neg {
		op = "-"
	}
	return Null, typeErr(pos, "cannot apply unary %s to %s", op, typeName(v))
}

// inList is `x IN list`: true when an element equals x; else null when x
// is null or an element comparison was null; else false.
func inList(x, list Value, pos Pos) (Value, error) {
	if list.kind == KindNull {
		return Null, nil
	}
	if list.kind != KindList {
		return Null, typeErr(pos, "IN expects a list on its right, got %s", typeName(list))
	}
	l := list.List()
	if x.kind == KindNull {
		if len(l) == 0 {
			return BoolValue(false), nil
		}
		return Null, nil
	}
	res := triFalse
	for _, e := range l {
		switch equal(x, e) {
		case triTrue:
			return BoolValue(true), nil
		case triNull:
			res = triNull
		}
	}
	return res.value(), nil
}

// stringPredicate is STARTS WITH, ENDS WITH, CONTAINS: null unless both
// sides are strings.
func stringPredicate(op string, a, b Value) Value {
	if a.kind != KindString || b.kind != KindString {
		return Null
	}
	switch op {
	case "STARTS WITH":
		return BoolValue(strings.HasPrefix(a.s, b.s))
	case "ENDS WITH":
		return BoolValue(strings.HasSuffix(a.s, b.s))
	}
	return BoolValue(strings.Contains(a.s, b.s))
}

// indexValue is x[i]: a list element (negative counts from the end; out of
// range is null), a map entry, or a node or relationship property.
func indexValue(ec *execCtx, x, i Value, pos Pos) (Value, error) {
	if x.kind == KindNull || i.kind == KindNull {
		return Null, nil
	}
	switch x.kind {
	case KindList:
		if i.kind != KindInt {
			return Null, typeErr(pos, "a list index must be an integer, got %s", typeName(i))
		}
		l := x.List()
		n := i.i
		if n < 0 {
			n += int64(len(l))
		}
		if n < 0 || n >= int64(len(l)) {
			return Null, nil
		}
		return l[n], nil
	case KindMap, KindNode, KindRel:
		if i.kind != KindString {
			return Null, typeErr(pos, "a map key must be a string, got %s", typeName(i))
		}
		return propertyOf(ec, x, i.s, pos)
	}
	return Null, typeErr(pos, "cannot index a %s", typeName(x))
}

// sliceValue is list[from..to]: bounds may be negative (from the end) and
// are clamped to the list; a null bound gives null.
func sliceValue(ec *execCtx, x, from Value, hasFrom bool, to Value, hasTo bool, pos Pos) (Value, error) {
	if x.kind == KindNull || (hasFrom && from.kind == KindNull) || (hasTo && to.kind == KindNull) {
		return Null, nil
	}
	if x.kind != KindList {
		return Null, typeErr(pos, "cannot slice a %s (use substring() for strings)", typeName(x))
	}
	l := x.List()
	n := int64(len(l))
	bound := func(v Value, has bool, def int64) (int64, error) {
		if !has {
			return def, nil
		}
		if v.kind != KindInt {
			return 0, typeErr(pos, "a slice bound must be an integer, got %s", typeName(v))
		}
		b := v.i
		if b < 0 {
			b += n
		}
		return min(max(b, 0), n), nil
	}
	lo, err := bound(from, hasFrom, 0)
	if err != nil {
		return Null, err
	}
	hi, err := bound(to, hasTo, n)
	if err != nil {
		return Null, err
	}
	if hi < lo {
		hi = lo
	}
	if err := ec.ticks(int(hi - lo)); err != nil {
		return Null, err
	}
	return ListValue(append([]Value{}, l[lo:hi]...)), nil
}
