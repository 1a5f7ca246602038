package cypher

import (
	"strconv"
)

// patternList parses `part, part, ...`. shortestPath(...) and
// allShortestPaths(...) are allowed only in MATCH (inMatch).
func (p *parser) patternList(inMatch bool) []*PatternPart {
	var parts []*PatternPart
	for {
		parts = append(parts, p.patternPart(inMatch))
		if !p.accept(tComma) {
			return parts
		}
	}
}

// patternPart parses `[p =] (a)-[r]->(b)...`, and in MATCH also
// `[p =] shortestPath((a)-[r*..5]->(b))` and allShortestPaths(...). How
// many relationships the function wraps and their bounds are checked by
// the compiler, which reports every such problem at once.
func (p *parser) patternPart(inMatch bool) *PatternPart {
	part := &PatternPart{Pos: p.tok().pos}
	if p.at(tIdent) && p.peek(1).kind == tEq {
		part.PathPos = p.tok().pos
		part.PathVar = p.variableName("a path variable")
		p.advance() // =
	}
	if s := shortestAt(p.tok()); s != AllPaths {
		if !inMatch {
			p.failAt(p.tok().pos, UnsupportedError, shortestElsewhere, s)
		}
		part.Shortest, part.ShortestPos = s, p.advance().pos
		p.enter()
		defer p.leave()
		p.expect(tLParen, "'(' after "+s.String()+", as in "+s.String()+"((a)-[:CALLS*..5]->(b))")
		p.patternElements(part)
		p.expect(tRParen, "')' to close "+s.String()+"(...)")
		return part
	}
	p.patternElements(part)
	return part
}

// patternElements parses `(a)-[r]->(b)...` into part.
func (p *parser) patternElements(part *PatternPart) {
	part.Nodes = append(part.Nodes, p.nodePattern())
	for p.at(tMinus) || p.at(tLt) {
		part.Rels = append(part.Rels, p.relPattern())
		part.Nodes = append(part.Nodes, p.nodePattern())
	}
}

// shortestAt tells whether t names shortestPath or allShortestPaths.
func shortestAt(t token) Shortest {
	switch {
	case isKw(t, "shortestPath"):
		return ShortestOne
	case isKw(t, "allShortestPaths"):
		return ShortestAll
	}
	return AllPaths
}

// shortestElsewhere refuses shortestPath outside MATCH (in an expression,
// EXISTS { }, COUNT { } or a pattern comprehension).
const shortestElsewhere = "%[1]s(...) is supported only as a pattern of MATCH or OPTIONAL MATCH: " +
	"write MATCH p = %[1]s((a)-[:CALLS*..5]->(b)) and use p"

func (p *parser) nodePattern() *NodePattern {
	p.enter()
	defer p.leave()
	n := &NodePattern{Pos: p.tok().pos}
	p.expect(tLParen, "'(' to start a node pattern")
	if p.at(tIdent) {
		n.Var = p.variableName("a variable, a label or ')'")
	}
	if p.at(tColon) {
		n.Labels = p.labelList("a label")
	}
	switch {
	case p.at(tLBrace):
		n.Props = p.mapLiteral()
	case p.at(tParam):
		p.failAt(p.tok().pos, UnsupportedError, "a parameter as a whole property map is not supported: write {name: $name}")
	}
	p.expect(tRParen, "')' to close the node pattern")
	return n
}

// labelList parses `:A|B:C` into [[A B] [C]] (also `:A|:B`).
func (p *parser) labelList(what string) [][]string {
	var groups [][]string
	for p.accept(tColon) {
		group := []string{p.symbolicName(what)}
		for p.accept(tPipe) {
			p.accept(tColon)
			group = append(group, p.symbolicName(what))
		}
		groups = append(groups, group)
	}
	return groups
}

// relPattern parses one relationship between two node patterns:
// `-[...]->`, `<-[...]-`, `-[...]-`, `-->`, `<--`, `--`, `<-->`.
func (p *parser) relPattern() *RelPattern {
	r := &RelPattern{Pos: p.tok().pos, Max: 1, Min: 1}
	left := p.accept(tLt)
	p.expect(tMinus, "'-' in a relationship pattern")
	if p.at(tLBracket) {
		p.relDetail(r)
	}
	p.expect(tMinus, "'-' to close the relationship pattern, as in -[r]-> or -[r]-")
	right := p.accept(tGt)
	switch {
	case left && !right:
		r.Dir = DirIn
	case right && !left:
		r.Dir = DirOut
	default:
		r.Dir = DirBoth
	}
	return r
}

func (p *parser) relDetail(r *RelPattern) {
	p.enter()
	defer p.leave()
	p.advance() // [
	if p.at(tIdent) {
		r.Var = p.variableName("a variable, a relationship type or ']'")
	}
	if p.at(tColon) {
		p.advance()
		r.Types = append(r.Types, p.symbolicName("a relationship type"))
		for p.accept(tPipe) {
			p.accept(tColon)
			r.Types = append(r.Types, p.symbolicName("a relationship type"))
		}
		if p.at(tColon) {
			p.fail("a relationship has one type: write [:A|B] for either A or B")
		}
	}
	if p.accept(tStar) {
		r.VarLen = true
		r.Min, r.Max = 1, -1
		if p.at(tInt) {
			n := p.smallInt()
			r.Min, r.Max = n, n
		}
		if p.accept(tDotDot) {
			r.Max = -1
			if p.at(tInt) {
				r.Max = p.smallInt()
			}
		}
	}
	switch {
	case p.at(tLBrace):
		r.Props = p.mapLiteral()
	case p.at(tParam):
		p.failAt(p.tok().pos, UnsupportedError, "a parameter as a whole property map is not supported: write {type: $type}")
	}
	p.expect(tRBracket, "']' to close the relationship pattern")
}

// smallInt reads a non-negative integer bound of a variable-length pattern.
func (p *parser) smallInt() int {
	t := p.advance()
	n, err := strconv.ParseInt(t.text, 10, 32)
	if err != nil || n < 0 {
		p.failAt(t.pos, SyntaxError, "invalid length bound %s: expected a small non-negative integer", t.text)
	}
	return int(n)
}
