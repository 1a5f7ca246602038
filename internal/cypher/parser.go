package cypher

import (
	"strings"
)

// The parser is recursive descent over the token list. On the first error
// in a clause it records a diagnostic and bails out to the clause loop,
// which skips to the next clause keyword and goes on; so one run reports a
// problem per clause (up to maxDiagnostics) without cascades.

// maxNesting bounds how deeply expressions and patterns may nest, so that
// hostile input cannot exhaust the stack.
const maxNesting = 200

type parser struct {
	src   string
	toks  []token
	i     int
	diags *diagList
	depth int
	quiet int // > 0 while trying an alternative: errors abort silently
	// memo remembers the outcome of each tentative parse by kind and
	// position, so that nested alternatives are tried once each (without
	// it, nested brackets that fail late cost 2^depth).
	memo map[memoKey]memoEntry
}

type memoKey struct {
	kind uint8
	pos  int
}

type memoEntry struct {
	ok   bool
	end  int
	node any
}

// Kinds of tentative parses.
const (
	tryPattern uint8 = iota
	tryListComp
	tryPatternComp
)

// bailout unwinds the parser to the nearest recovery point.
type bailout struct{}

// Parse parses a query. The error, when not nil, is an *Error listing every
// problem found.
func Parse(src string) (*Statement, error) {
	var diags diagList
	p := &parser{src: src, diags: &diags}
	p.toks = lex(src, &diags)
	stmt := p.statement()
	if err := diags.err(src); err != nil {
		return nil, err
	}
	return stmt, nil
}

func (p *parser) tok() token        { return p.toks[p.i] }
func (p *parser) peek(n int) token  { return p.toks[min(p.i+n, len(p.toks)-1)] }
func (p *parser) at(k tokKind) bool { return p.tok().kind == k }

func (p *parser) advance() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// isKw reports whether token t is the (unquoted) keyword kw.
func isKw(t token, kw string) bool {
	return t.kind == tIdent && !t.quoted && strings.EqualFold(t.text, kw)
}

func (p *parser) atKw(kw string) bool { return isKw(p.tok(), kw) }

func (p *parser) acceptKw(kw string) bool {
	if p.atKw(kw) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) accept(k tokKind) bool {
	if p.at(k) {
		p.advance()
		return true
	}
	return false
}

// fail records a syntax error at the current token and unwinds.
func (p *parser) fail(format string, args ...any) {
	p.failAt(p.tok().pos, SyntaxError, format, args...)
}

func (p *parser) failAt(pos Pos, kind ErrorKind, format string, args ...any) {
	if p.quiet == 0 {
		p.diags.add(pos, kind, format, args...)
	}
	panic(bailout{})
}

// expected fails with "expected X, found Y".
func (p *parser) expected(what string) {
	p.fail("expected %s, found %s", what, p.tok().describe())
}

func (p *parser) expect(k tokKind, what string) token {
	if !p.at(k) {
		p.expected(what)
	}
	return p.advance()
}

func (p *parser) expectKw(kw, what string) {
	if !p.acceptKw(kw) {
		p.expected(what)
	}
}

// attempt runs f as a tentative parse: when f fails, the position is
// restored, nothing is reported, and attempt returns false.
func (p *parser) attempt(f func()) (ok bool) {
	save, saveDepth := p.i, p.depth
	p.quiet++
	defer func() {
		p.quiet--
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			p.i, p.depth = save, saveDepth
			ok = false
		}
	}()
	f()
	return true
}

// tentative runs f as a tentative parse of the given kind at the current
// position, once: later calls at the same position reuse the outcome.
func (p *parser) tentative(kind uint8, f func() any) (any, bool) {
	key := memoKey{kind, p.i}
	if m, ok := p.memo[key]; ok {
		if m.ok {
			p.i = m.end
		}
		return m.node, m.ok
	}
	var node any
	ok := p.attempt(func() { node = f() })
	if p.memo == nil {
		p.memo = map[memoKey]memoEntry{}
	}
	p.memo[key] = memoEntry{ok: ok, end: p.i, node: node}
	return node, ok
}

// recoverClause catches a bailout and skips to the next clause: the next
// clause keyword outside brackets after the failed clause's first token.
func (p *parser) recoverClause(start int) {
	if r := recover(); r != nil {
		if _, ok := r.(bailout); !ok {
			panic(r)
		}
		p.depth = 0
		if p.i == start {
			p.advance()
		}
		p.syncToClause()
	}
}

// clauseKeywords start clauses (supported or not); the parser resumes at
// one after an error.
var clauseKeywords = []string{"MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "UNION",
	"CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "FOREACH", "LOAD", "CALL", "USE", "DROP", "START"}

func (p *parser) atClauseKeyword() bool {
	t := p.tok()
	if t.kind != tIdent || t.quoted {
		return false
	}
	for _, kw := range clauseKeywords {
		if strings.EqualFold(t.text, kw) {
			// STARTS WITH / ENDS WITH are operators, not clauses.
			if strings.EqualFold(kw, "WITH") && p.i > 0 {
				prev := p.toks[p.i-1]
				if isKw(prev, "STARTS") || isKw(prev, "ENDS") {
					return false
				}
			}
			return true
		}
	}
	return false
}

// syncToClause skips to the next clause keyword or ';'. A keyword right
// after an opening bracket, a comma or a dot is taken for a misused name,
// not for the start of a clause.
func (p *parser) syncToClause() {
	for !p.at(tEOF) {
		if p.at(tSemi) {
			return
		}
		if p.atClauseKeyword() && p.i > 0 {
			switch p.toks[p.i-1].kind {
			case tLParen, tLBracket, tLBrace, tComma, tDot, tColon, tPipe:
			default:
				return
			}
		}
		p.advance()
	}
}

// skipGroup skips a bracketed group at the current token, if there is one.
func (p *parser) skipGroup() {
	if !p.at(tLParen) && !p.at(tLBrace) && !p.at(tLBracket) {
		return
	}
	depth := 0
	for !p.at(tEOF) {
		switch p.tok().kind {
		case tLParen, tLBracket, tLBrace:
			depth++
		case tRParen, tRBracket, tRBrace:
			depth--
		}
		p.advance()
		if depth == 0 {
			return
		}
	}
}

func (p *parser) statement() *Statement {
	st := &Statement{}
	if p.acceptKw("EXPLAIN") {
		st.Explain = true
	} else if p.atKw("PROFILE") {
		p.diags.add(p.tok().pos, UnsupportedError, "PROFILE is not supported: use EXPLAIN to see the plan")
		p.advance()
	}
	for {
		st.Parts = append(st.Parts, p.singleQuery())
		if !p.atKw("UNION") {
			break
		}
		st.UnionPos = append(st.UnionPos, p.tok().pos)
		p.advance()
		st.UnionAll = append(st.UnionAll, p.acceptKw("ALL"))
	}
	p.accept(tSemi)
	if !p.at(tEOF) {
		t := p.tok()
		if len(p.diags.diags) == 0 {
			if t.kind == tIdent && !t.quoted && p.toks[max(p.i-1, 0)].kind == tSemi {
				p.diags.add(t.pos, UnsupportedError, "only one statement per query: remove what follows ';'")
			} else {
				p.diags.add(t.pos, SyntaxError, "unexpected %s after the end of the query", t.describe())
			}
		}
	}
	return st
}

func (p *parser) singleQuery() *SingleQuery {
	q := &SingleQuery{}
	for !p.at(tEOF) && !p.at(tSemi) && !p.atKw("UNION") {
		before := p.i
		if c := p.clause(); c != nil {
			q.Clauses = append(q.Clauses, c)
		}
		if p.i == before { // no progress: skip the token to avoid looping
			p.advance()
		}
	}
	return q
}

// readOnlyHelp lists what the engine supports; every refusal ends with it.
const readOnlyHelp = "the code graph is read-only. Supported: MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP, LIMIT, UNION, EXISTS { }, COUNT { }; see `gitnexus cypher --help`"

func (p *parser) clause() (c Clause) {
	defer p.recoverClause(p.i)
	t := p.tok()
	switch {
	case isKw(t, "MATCH"):
		return p.matchClause(false)
	case isKw(t, "OPTIONAL"):
		p.advance()
		if !p.atKw("MATCH") {
			p.expected("MATCH after OPTIONAL")
		}
		return p.matchClause(true)
	case isKw(t, "UNWIND"):
		return p.unwindClause()
	case isKw(t, "WITH"):
		return p.withClause()
	case isKw(t, "RETURN"):
		return p.returnClause()
	case isKw(t, "WHERE"):
		p.fail("WHERE must follow MATCH, OPTIONAL MATCH or WITH")
	case isKw(t, "ORDER"), isKw(t, "SKIP"), isKw(t, "LIMIT"):
		p.fail("%s must follow RETURN or WITH", strings.ToUpper(t.text))
	}
	if kw := unsupportedClause(p); kw != "" {
		p.advance()
		if kw == "DETACH DELETE" || kw == "LOAD CSV" {
			p.advance()
		}
		p.skipGroup() // CALL { ... }, FOREACH ( ... )
		p.failAt(t.pos, UnsupportedError, "%s is not supported: %s", kw, readOnlyHelp)
	}
	p.expected("a clause (MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN)")
	return nil
}

// unsupportedClause names the clause at the parser's position when it is
// one this engine refuses.
func unsupportedClause(p *parser) string {
	t := p.tok()
	if t.kind != tIdent || t.quoted {
		return ""
	}
	switch kw := strings.ToUpper(t.text); kw {
	case "CREATE", "MERGE", "DELETE", "SET", "REMOVE", "FOREACH", "DROP", "USE", "START":
		return kw
	case "DETACH":
		return "DETACH DELETE"
	case "LOAD":
		return "LOAD CSV"
	case "CALL":
		if p.peek(1).kind == tLBrace {
			return "CALL { }"
		}
		return "CALL (procedures)"
	}
	return ""
}

func (p *parser) matchClause(optional bool) *MatchClause {
	c := &MatchClause{Pos: p.tok().pos, Optional: optional}
	p.advance() // MATCH
	c.Pattern = p.patternList(true)
	if p.acceptKw("WHERE") {
		c.Where = p.expr()
	}
	p.endOfClause()
	return c
}

// endOfClause checks that a clause ends where the next clause (or the
// query) begins.
func (p *parser) endOfClause() {
	if p.at(tEOF) || p.at(tSemi) || p.atClauseKeyword() {
		return
	}
	if kw := unsupportedClause(p); kw != "" {
		return
	}
	p.expected("a clause keyword or the end of the query")
}

func (p *parser) unwindClause() *UnwindClause {
	c := &UnwindClause{Pos: p.tok().pos}
	p.advance()
	c.Expr = p.expr()
	p.expectKw("AS", "AS after the UNWIND expression")
	c.VarPos = p.tok().pos
	c.Var = p.variableName("a variable name after AS")
	p.endOfClause()
	return c
}

func (p *parser) withClause() *WithClause {
	c := &WithClause{Pos: p.tok().pos}
	p.advance()
	c.Proj = p.projection("WITH")
	if p.acceptKw("WHERE") {
		c.Where = p.expr()
	}
	p.endOfClause()
	return c
}

func (p *parser) returnClause() *ReturnClause {
	c := &ReturnClause{Pos: p.tok().pos}
	p.advance()
	c.Proj = p.projection("RETURN")
	if !p.at(tEOF) && !p.at(tSemi) && !p.atKw("UNION") {
		if p.atClauseKeyword() || unsupportedClause(p) != "" {
			p.fail("RETURN must be the last clause (use WITH to pass results on)")
		}
		p.expected("the end of the query after RETURN")
	}
	return c
}

func (p *parser) projection(clause string) *Projection {
	pr := &Projection{}
	pr.Distinct = p.acceptKw("DISTINCT")
	if p.at(tStar) {
		pr.Star = true
		pr.StarPos = p.tok().pos
		p.advance()
		if !p.accept(tComma) {
			goto tail
		}
	}
	for {
		start := p.tok()
		e := p.expr()
		it := &ProjItem{Expr: e, Text: strings.TrimSpace(p.src[start.pos.Off:p.toks[p.i-1].end])}
		if p.acceptKw("AS") {
			it.AliasPos = p.tok().pos
			it.Alias = p.variableName("a name after AS")
		}
		pr.Items = append(pr.Items, it)
		if !p.accept(tComma) {
			break
		}
	}
tail:
	if p.atKw("ORDER") {
		p.advance()
		p.expectKw("BY", "BY after ORDER")
		for {
			si := &SortItem{Expr: p.expr()}
			switch {
			case p.acceptKw("DESC"), p.acceptKw("DESCENDING"):
				si.Desc = true
			case p.acceptKw("ASC"), p.acceptKw("ASCENDING"):
			}
			pr.Order = append(pr.Order, si)
			if !p.accept(tComma) {
				break
			}
		}
	}
	if p.acceptKw("SKIP") || p.acceptKw("OFFSET") {
		pr.Skip = p.expr()
	}
	if p.acceptKw("LIMIT") {
		pr.Limit = p.expr()
	}
	return pr
}

// reservedWords cannot name variables (unless quoted with backticks).
var reservedWords = map[string]bool{
	"MATCH": true, "OPTIONAL": true, "WHERE": true, "WITH": true, "RETURN": true, "UNWIND": true,
	"ORDER": true, "SKIP": true, "LIMIT": true, "UNION": true, "AND": true, "OR": true, "XOR": true,
	"NOT": true, "IN": true, "IS": true, "AS": true, "STARTS": true, "ENDS": true, "CONTAINS": true,
	"CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "DISTINCT": true,
	"CREATE": true, "MERGE": true, "DELETE": true, "DETACH": true, "SET": true, "REMOVE": true,
	"CALL": true, "FOREACH": true, "LOAD": true, "NULL": true, "TRUE": true, "FALSE": true,
}

func (p *parser) variableName(what string) string {
	t := p.tok()
	if t.kind == tIdent && !t.quoted && reservedWords[strings.ToUpper(t.text)] {
		p.fail("expected %s, found the reserved word '%s' (quote it as `%s` to use it as a name)", what, t.text, t.text)
	}
	if t.kind != tIdent {
		p.expected(what)
	}
	p.advance()
	return t.val
}

// symbolicName reads a label, relationship type, property or map key: any
// identifier, keywords included.
func (p *parser) symbolicName(what string) string {
	t := p.tok()
	if t.kind != tIdent {
		p.expected(what)
	}
	p.advance()
	return t.val
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.fail("the query nests too deeply (more than %d levels)", maxNesting)
	}
}

func (p *parser) leave() { p.depth-- }
