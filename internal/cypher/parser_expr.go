package cypher

import (
	"math"
	"strconv"
	"strings"
)

// Expression precedence, loosest first: OR, XOR, AND, NOT, comparison
// (chained: a < b < c is a < b AND b < c), string/list/null predicates
// (STARTS WITH, ENDS WITH, CONTAINS, IN, =~, IS [NOT] NULL), + -, * / %,
// ^, unary + -, postfix (.prop, [i], [a..b], :Label, {map projection}).

func (p *parser) expr() Expr {
	p.enter()
	defer p.leave()
	return p.orExpr()
}

func (p *parser) binaryLevel(ops []string, next func() Expr) Expr {
	l := next()
	for {
		matched := ""
		for _, op := range ops {
			if p.atKw(op) {
				matched = op
				break
			}
		}
		if matched == "" {
			return l
		}
		pos := p.tok().pos
		p.advance()
		r := next()
		l = &BinaryExpr{Pos: pos, Op: matched, L: l, R: r}
	}
}

func (p *parser) orExpr() Expr  { return p.binaryLevel([]string{"OR"}, p.xorExpr) }
func (p *parser) xorExpr() Expr { return p.binaryLevel([]string{"XOR"}, p.andExpr) }
func (p *parser) andExpr() Expr { return p.binaryLevel([]string{"AND"}, p.notExpr) }

func (p *parser) notExpr() Expr {
	if p.atKw("NOT") {
		p.enter()
		defer p.leave()
		pos := p.advance().pos
		return &UnaryExpr{Pos: pos, Op: "NOT", X: p.notExpr()}
	}
	return p.comparison()
}

var comparisonOps = map[tokKind]string{tEq: "=", tNe: "<>", tLt: "<", tGt: ">", tLe: "<=", tGe: ">="}

func (p *parser) comparison() Expr {
	first := p.predicate()
	var result Expr
	left := first
	for {
		op, ok := comparisonOps[p.tok().kind]
		if !ok {
			break
		}
		pos := p.advance().pos
		right := p.predicate()
		cmp := &BinaryExpr{Pos: pos, Op: op, L: left, R: right}
		if result == nil {
			result = cmp
		} else {
			result = &BinaryExpr{Pos: pos, Op: "AND", L: result, R: cmp}
		}
		left = right
	}
	if result == nil {
		return first
	}
	return result
}

func (p *parser) predicate() Expr {
	x := p.additive()
	for {
		t := p.tok()
		switch {
		case isKw(t, "STARTS") || isKw(t, "ENDS"):
			p.advance()
			p.expectKw("WITH", strings.ToUpper(t.text)+" WITH")
			x = &BinaryExpr{Pos: t.pos, Op: strings.ToUpper(t.text) + " WITH", L: x, R: p.additive()}
		case isKw(t, "CONTAINS"):
			p.advance()
			x = &BinaryExpr{Pos: t.pos, Op: "CONTAINS", L: x, R: p.additive()}
		case isKw(t, "IN"):
			p.advance()
			x = &BinaryExpr{Pos: t.pos, Op: "IN", L: x, R: p.additive()}
		case t.kind == tRegex:
			p.advance()
			x = &BinaryExpr{Pos: t.pos, Op: "=~", L: x, R: p.additive()}
		case isKw(t, "IS"):
			p.advance()
			not := p.acceptKw("NOT")
			p.expectKw("NULL", "NULL after IS")
			x = &IsNullExpr{Pos: t.pos, X: x, Not: not}
		default:
			return x
		}
	}
}

func (p *parser) arith(ops map[tokKind]string, next func() Expr) Expr {
	l := next()
	for {
		op, ok := ops[p.tok().kind]
		if !ok {
			return l
		}
		pos := p.advance().pos
		l = &BinaryExpr{Pos: pos, Op: op, L: l, R: next()}
	}
}

var (
	addOps = map[tokKind]string{tPlus: "+", tMinus: "-"}
	mulOps = map[tokKind]string{tStar: "*", tSlash: "/", tPercent: "%"}
	powOps = map[tokKind]string{tCaret: "^"}
)

func (p *parser) additive() Expr       { return p.arith(addOps, p.multiplicative) }
func (p *parser) multiplicative() Expr { return p.arith(mulOps, p.power) }
func (p *parser) power() Expr          { return p.arith(powOps, p.unary) }

func (p *parser) unary() Expr {
	if p.at(tMinus) || p.at(tPlus) {
		p.enter()
		defer p.leave()
		t := p.advance()
		// Fold -<number> so that the smallest integer can be written.
		if t.kind == tMinus && (p.at(tInt) || p.at(tFloat)) && p.peek(1).kind != tCaret {
			x := p.atom().(*Literal)
			switch x.Val.kind {
			case kindBigInt:
				x.Val = IntValue(math.MinInt64)
			case KindInt:
				x.Val = IntValue(-x.Val.i)
			case KindFloat:
				x.Val = FloatValue(-x.Val.f)
			}
			x.Pos = t.pos
			return p.postfix(x)
		}
		return &UnaryExpr{Pos: t.pos, Op: t.text, X: p.unary()}
	}
	return p.postfix(p.atom())
}

func (p *parser) postfix(x Expr) Expr {
	if lit, ok := x.(*Literal); ok && lit.Val.kind == kindBigInt {
		p.failAt(lit.Pos, SyntaxError, "integer literal out of range (64-bit integers)")
	}
	for {
		t := p.tok()
		switch t.kind {
		case tDot:
			p.advance()
			x = &PropAccess{Pos: t.pos, X: x, Name: p.symbolicName("a property name after '.'")}
		case tLBracket:
			p.enter()
			p.advance()
			var from, to Expr
			if !p.at(tDotDot) {
				from = p.expr()
			}
			if p.accept(tDotDot) {
				if !p.at(tRBracket) {
					to = p.expr()
				}
				p.expect(tRBracket, "']' to close the slice")
				x = &SliceExpr{Pos: t.pos, X: x, From: from, To: to}
			} else {
				p.expect(tRBracket, "']' to close the index")
				x = &IndexExpr{Pos: t.pos, X: x, Index: from}
			}
			p.leave()
		case tColon:
			x = &LabelExpr{Pos: t.pos, X: x, Labels: p.labelList("a label")}
		case tLBrace:
			v, ok := x.(*Variable)
			if !ok {
				return x
			}
			x = p.mapProjection(v)
		default:
			return x
		}
	}
}

func (p *parser) atom() Expr {
	t := p.tok()
	switch t.kind {
	case tInt:
		p.advance()
		return &Literal{Pos: t.pos, Val: p.intLiteral(t)}
	case tFloat:
		p.advance()
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			p.failAt(t.pos, SyntaxError, "invalid number %s", t.text)
		}
		if math.IsInf(f, 0) {
			p.failAt(t.pos, SyntaxError, "float literal out of range: %s", t.text)
		}
		return &Literal{Pos: t.pos, Val: FloatValue(f)}
	case tString:
		p.advance()
		return &Literal{Pos: t.pos, Val: StringValue(t.val)}
	case tParam:
		p.advance()
		return &Param{Pos: t.pos, Name: t.val}
	case tLBracket:
		return p.bracketExpr()
	case tLBrace:
		return p.mapLiteral()
	case tLParen:
		return p.parenOrPattern()
	case tIdent:
		return p.identAtom()
	}
	p.expected("an expression")
	return nil
}

// intLiteral reads decimal, hexadecimal (0x1F), octal (0o17) integers.
// Values past int64 are kept as a marker so that -9223372036854775808 can
// be folded by unary minus; anywhere else they are an error.
func (p *parser) intLiteral(t token) Value {
	text := strings.ToLower(t.text)
	base := 10
	digits := text
	switch {
	case strings.HasPrefix(text, "0x"):
		base, digits = 16, text[2:]
	case strings.HasPrefix(text, "0o"):
		base, digits = 8, text[2:]
	}
	n, err := strconv.ParseInt(digits, base, 64)
	if err != nil {
		if u, uerr := strconv.ParseUint(digits, base, 64); uerr == nil && u == 1<<63 {
			return Value{kind: kindBigInt}
		}
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.failAt(t.pos, SyntaxError, "integer literal out of range (64-bit integers): %s", t.text)
		}
		p.failAt(t.pos, SyntaxError, "invalid number %s", t.text)
	}
	return IntValue(n)
}

func (p *parser) identAtom() Expr {
	t := p.tok()
	if !t.quoted {
		switch strings.ToUpper(t.text) {
		case "TRUE":
			p.advance()
			return &Literal{Pos: t.pos, Val: BoolValue(true)}
		case "FALSE":
			p.advance()
			return &Literal{Pos: t.pos, Val: BoolValue(false)}
		case "NULL":
			p.advance()
			return &Literal{Pos: t.pos, Val: Null}
		case "CASE":
			return p.caseExpr()
		case "EXISTS", "COUNT":
			if p.peek(1).kind == tLBrace {
				return p.subquery()
			}
		case "ALL", "ANY", "NONE", "SINGLE":
			if p.peek(1).kind == tLParen && p.peek(2).kind == tIdent && isKw(p.peek(3), "IN") {
				return p.quantifier()
			}
		case "REDUCE":
			if p.peek(1).kind == tLParen {
				return p.reduce()
			}
		case "SHORTESTPATH", "ALLSHORTESTPATHS":
			if p.peek(1).kind == tLParen {
				p.failAt(t.pos, UnsupportedError, shortestElsewhere, shortestAt(t))
			}
		}
	}
	// A function call: name( or namespace.name(
	j := 1
	for p.peek(j).kind == tDot && p.peek(j+1).kind == tIdent {
		j += 2
	}
	if p.peek(j).kind == tLParen {
		return p.call()
	}
	p.advance()
	if !t.quoted && reservedWords[strings.ToUpper(t.text)] {
		p.failAt(t.pos, SyntaxError, "expected an expression, found '%s'", t.text)
	}
	return &Variable{Pos: t.pos, Name: t.val}
}

func (p *parser) call() Expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	name := p.advance().val
	for p.accept(tDot) {
		name += "." + p.advance().val
	}
	c := &CallExpr{Pos: t.pos, Name: name}
	p.expect(tLParen, "'('")
	if p.at(tStar) {
		p.advance()
		c.Star = true
		p.expect(tRParen, "')' after *")
		return c
	}
	c.Distinct = p.acceptKw("DISTINCT")
	if !p.at(tRParen) {
		for {
			c.Args = append(c.Args, p.expr())
			if !p.accept(tComma) {
				break
			}
		}
	}
	p.expect(tRParen, "')' or ',' in the argument list of "+name)
	return c
}

// parenOrPattern parses `(` as a pattern expression when what follows is a
// node pattern joined to at least one relationship, else as a
// parenthesised expression.
func (p *parser) parenOrPattern() Expr {
	if part, ok := p.tentative(tryPattern, func() any {
		part := p.patternPart(false)
		if len(part.Rels) == 0 {
			p.fail("not a pattern")
		}
		return part
	}); ok {
		part := part.(*PatternPart)
		return &PatternExpr{Pos: part.Pos, Part: part}
	}
	p.enter()
	defer p.leave()
	p.advance()
	e := p.expr()
	p.expect(tRParen, "')' to close the parenthesis")
	return e
}

// bracketExpr parses a list literal, a list comprehension or a pattern
// comprehension.
func (p *parser) bracketExpr() Expr {
	p.enter()
	defer p.leave()
	start := p.tok().pos
	// [v IN list WHERE pred | proj]
	if p.peek(1).kind == tIdent && isKw(p.peek(2), "IN") {
		if lc, ok := p.tentative(tryListComp, func() any {
			p.advance()
			lc := &ListComp{Pos: start, VarPos: p.tok().pos}
			lc.Var = p.variableName("a variable")
			p.advance() // IN
			lc.List = p.expr()
			if p.acceptKw("WHERE") {
				lc.Where = p.expr()
			}
			if p.accept(tPipe) {
				lc.Proj = p.expr()
			}
			p.expect(tRBracket, "']'")
			return lc
		}); ok {
			return lc.(*ListComp)
		}
	}
	// [(a)-->(b) WHERE pred | proj], [p = (a)-->(b) | proj]
	if p.peek(1).kind == tLParen || (p.peek(1).kind == tIdent && p.peek(2).kind == tEq && p.peek(3).kind == tLParen) {
		if pc, ok := p.tentative(tryPatternComp, func() any {
			p.advance()
			pc := &PatternComp{Pos: start}
			pc.Part = p.patternPart(false)
			if len(pc.Part.Rels) == 0 {
				p.fail("not a pattern")
			}
			if p.acceptKw("WHERE") {
				pc.Where = p.expr()
			}
			p.expect(tPipe, "'|'")
			pc.Proj = p.expr()
			p.expect(tRBracket, "']'")
			return pc
		}); ok {
			return pc.(*PatternComp)
		}
	}
	p.advance()
	l := &ListLit{Pos: start}
	if !p.at(tRBracket) {
		for {
			l.Elems = append(l.Elems, p.expr())
			if !p.accept(tComma) {
				break
			}
		}
	}
	p.expect(tRBracket, "']' or ',' in the list")
	return l
}

func (p *parser) mapLiteral() *MapLit {
	p.enter()
	defer p.leave()
	m := &MapLit{Pos: p.tok().pos}
	p.expect(tLBrace, "'{'")
	if !p.at(tRBrace) {
		for {
			key := p.symbolicName("a property name")
			p.expect(tColon, "':' after the property name")
			m.Keys = append(m.Keys, key)
			m.Vals = append(m.Vals, p.expr())
			if !p.accept(tComma) {
				break
			}
		}
	}
	p.expect(tRBrace, "'}' or ',' in the map")
	return m
}

func (p *parser) mapProjection(v *Variable) Expr {
	p.enter()
	defer p.leave()
	mp := &MapProjection{Pos: p.tok().pos, X: v}
	p.advance() // {
	if !p.at(tRBrace) {
		for {
			switch {
			case p.accept(tDot):
				if p.accept(tStar) {
					mp.Items = append(mp.Items, MapProjItem{Kind: "all"})
				} else {
					mp.Items = append(mp.Items, MapProjItem{Kind: "prop", Key: p.symbolicName("a property name or '*' after '.'")})
				}
			case p.at(tIdent) && p.peek(1).kind == tColon:
				key := p.symbolicName("a key")
				p.advance()
				mp.Items = append(mp.Items, MapProjItem{Kind: "key", Key: key, Expr: p.expr()})
			case p.at(tIdent):
				t := p.tok()
				name := p.variableName("a variable")
				mp.Items = append(mp.Items, MapProjItem{Kind: "var", Key: name, Expr: &Variable{Pos: t.pos, Name: name}})
			default:
				p.expected("'.property', 'key: value' or a variable in the map projection")
			}
			if !p.accept(tComma) {
				break
			}
		}
	}
	p.expect(tRBrace, "'}' or ',' in the map projection")
	return mp
}

func (p *parser) caseExpr() Expr {
	p.enter()
	defer p.leave()
	c := &CaseExpr{Pos: p.advance().pos}
	if !p.atKw("WHEN") {
		c.Subject = p.expr()
	}
	if !p.atKw("WHEN") {
		p.expected("WHEN in CASE")
	}
	for p.acceptKw("WHEN") {
		c.Whens = append(c.Whens, p.expr())
		p.expectKw("THEN", "THEN after the WHEN condition")
		c.Thens = append(c.Thens, p.expr())
	}
	if p.acceptKw("ELSE") {
		c.Else = p.expr()
	}
	p.expectKw("END", "END to close CASE (or WHEN, ELSE)")
	return c
}

func (p *parser) subquery() Expr {
	p.enter()
	defer p.leave()
	t := p.advance()
	s := &SubqueryExpr{Pos: t.pos, Count: strings.EqualFold(t.text, "COUNT")}
	p.advance() // {
	if p.acceptKw("MATCH") {
		// EXISTS { MATCH pattern [WHERE pred] }
	}
	s.Pattern = p.patternList(false)
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	if p.atKw("RETURN") || p.atKw("WITH") || p.atKw("MATCH") || p.atKw("UNWIND") {
		p.failAt(p.tok().pos, UnsupportedError, "%s inside %s { } is not supported: write a pattern with an optional WHERE", strings.ToUpper(p.tok().text), strings.ToUpper(t.text))
	}
	p.expect(tRBrace, "'}' to close "+strings.ToUpper(t.text)+" { }")
	return s
}

func (p *parser) quantifier() Expr {
	p.enter()
	defer p.leave()
	t := p.advance()
	q := &Quantifier{Pos: t.pos, Kind: strings.ToLower(t.text)}
	p.advance() // (
	q.Var = p.variableName("a variable")
	p.advance() // IN
	q.List = p.expr()
	if p.acceptKw("WHERE") {
		q.Where = p.expr()
	} else {
		p.expected("WHERE in " + q.Kind + "(x IN list WHERE predicate)")
	}
	p.expect(tRParen, "')'")
	return q
}

func (p *parser) reduce() Expr {
	p.enter()
	defer p.leave()
	r := &ReduceExpr{Pos: p.advance().pos}
	p.advance() // (
	r.Acc = p.variableName("the accumulator variable")
	p.expect(tEq, "'=' after the accumulator")
	r.Init = p.expr()
	p.expect(tComma, "',' after the initial value")
	r.Var = p.variableName("a variable")
	p.expectKw("IN", "IN")
	r.List = p.expr()
	p.expect(tPipe, "'|' before the reduce expression")
	r.Expr = p.expr()
	p.expect(tRParen, "')'")
	return r
}
