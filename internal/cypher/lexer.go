package cypher

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token. Keywords are identifiers: the parser
// compares them case-insensitively where it expects one, so that most
// keywords can still name variables and properties.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tParam
	tLParen   // (
	tRParen   // )
	tLBracket // [
	tRBracket // ]
	tLBrace   // {
	tRBrace   // }
	tComma    // ,
	tColon    // :
	tSemi     // ;
	tDot      // .
	tDotDot   // ..
	tPipe     // |
	tEq       // =
	tNe       // <> or !=
	tLt       // <
	tGt       // >
	tLe       // <=
	tGe       // >=
	tRegex    // =~
	tPlus     // +
	tMinus    // -
	tStar     // *
	tSlash    // /
	tPercent  // %
	tCaret    // ^
	tPlusEq   // += (only to refuse SET n += ...)
	tBad      // a character that starts no token
)

var tokNames = [...]string{
	tEOF: "end of query", tIdent: "identifier", tInt: "integer", tFloat: "float", tString: "string",
	tParam: "parameter", tLParen: "'('", tRParen: "')'", tLBracket: "'['", tRBracket: "']'",
	tLBrace: "'{'", tRBrace: "'}'", tComma: "','", tColon: "':'", tSemi: "';'", tDot: "'.'",
	tDotDot: "'..'", tPipe: "'|'", tEq: "'='", tNe: "'<>'", tLt: "'<'", tGt: "'>'", tLe: "'<='",
	tGe: "'>='", tRegex: "'=~'", tPlus: "'+'", tMinus: "'-'", tStar: "'*'", tSlash: "'/'",
	tPercent: "'%'", tCaret: "'^'", tPlusEq: "'+='", tBad: "character",
}

func (k tokKind) String() string { return tokNames[k] }

// token is one lexeme. Text is the source text; Val the decoded value of
// strings, identifiers (backticks removed) and parameters (without '$').
type token struct {
	kind   tokKind
	pos    Pos
	end    int // byte offset just past the token
	text   string
	val    string
	quoted bool // a backtick-quoted identifier: never a keyword
}

// describe names the token for an error message: "'RETURN'", "end of query".
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of query"
	case tIdent, tInt, tFloat, tParam, tBad:
		return "'" + t.text + "'"
	case tString:
		return "string " + t.text
	}
	return t.kind.String()
}

// lexer turns a query into tokens. It reports every problem it finds and
// keeps going, so that the parser can report its own problems too.
type lexer struct {
	src   string
	off   int
	line  int
	col   int
	diags *diagList
	prev  tokKind
}

func lex(src string, diags *diagList) []token {
	lx := &lexer{src: src, line: 1, col: 1, diags: diags, prev: tEOF}
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		lx.prev = t.kind
		if t.kind == tEOF {
			return toks
		}
	}
}

func (lx *lexer) pos() Pos { return Pos{Off: lx.off, Line: lx.line, Col: lx.col} }

func (lx *lexer) peekRune(ahead int) rune {
	i := lx.off
	for ; ahead > 0 && i < len(lx.src); ahead-- {
		_, n := utf8.DecodeRuneInString(lx.src[i:])
		i += n
	}
	if i >= len(lx.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(lx.src[i:])
	return r
}

func (lx *lexer) advance() rune {
	r, n := utf8.DecodeRuneInString(lx.src[lx.off:])
	lx.off += n
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
	return r
}

// skipSpace skips white space and comments.
func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		r := lx.peekRune(0)
		switch {
		case unicode.IsSpace(r):
			lx.advance()
		case r == '/' && lx.peekRune(1) == '/':
			for lx.off < len(lx.src) && lx.peekRune(0) != '\n' {
				lx.advance()
			}
		case r == '/' && lx.peekRune(1) == '*':
			start := lx.pos()
			lx.advance()
			lx.advance()
			closed := false
			for lx.off < len(lx.src) {
				if lx.peekRune(0) == '*' && lx.peekRune(1) == '/' {
					lx.advance()
					lx.advance()
					closed = true
					break
				}
				lx.advance()
			}
			if !closed {
				lx.diags.add(start, SyntaxError, "unterminated comment: '/*' has no closing '*/'")
			}
		default:
			return
		}
	}
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (lx *lexer) next() token {
	lx.skipSpace()
	start := lx.pos()
	mk := func(k tokKind) token {
		return token{kind: k, pos: start, end: lx.off, text: lx.src[start.Off:lx.off]}
	}
	if lx.off >= len(lx.src) {
		return token{kind: tEOF, pos: start, end: lx.off}
	}
	r := lx.peekRune(0)
	switch {
	case isIdentStart(r):
		for lx.off < len(lx.src) && isIdentPart(lx.peekRune(0)) {
			lx.advance()
		}
		t := mk(tIdent)
		t.val = t.text
		return t
	case r == '`':
		return lx.quotedIdent(start)
	case r >= '0' && r <= '9':
		return lx.number(start)
	case r == '.' && isDigit(lx.peekRune(1)) && lx.floatMayStartWithDot():
		return lx.number(start)
	case r == '\'' || r == '"':
		return lx.str(start, r)
	case r == '$':
		lx.advance()
		p := lx.pos()
		for lx.off < len(lx.src) && isIdentPart(lx.peekRune(0)) {
			lx.advance()
		}
		t := mk(tParam)
		t.val = t.text[1:]
		if t.val == "" {
			if lx.peekRune(0) == '`' {
				q := lx.quotedIdent(p)
				t = mk(tParam)
				t.val = q.val
				return t
			}
			lx.diags.add(start, SyntaxError, "'$' must be followed by a parameter name, as in $name")
		}
		return t
	}
	lx.advance()
	two := func(next rune, k2, k1 tokKind) token {
		if lx.peekRune(0) == next {
			lx.advance()
			return mk(k2)
		}
		return mk(k1)
	}
	switch r {
	case '(':
		return mk(tLParen)
	case ')':
		return mk(tRParen)
	case '[':
		return mk(tLBracket)
	case ']':
		return mk(tRBracket)
	case '{':
		return mk(tLBrace)
	case '}':
		return mk(tRBrace)
	case ',':
		return mk(tComma)
	case ':':
		return mk(tColon)
	case ';':
		return mk(tSemi)
	case '|':
		return mk(tPipe)
	case '.':
		return two('.', tDotDot, tDot)
	case '=':
		return two('~', tRegex, tEq)
	case '<':
		switch lx.peekRune(0) {
		case '>':
			lx.advance()
			return mk(tNe)
		case '=':
			lx.advance()
			return mk(tLe)
		}
		return mk(tLt)
	case '>':
		return two('=', tGe, tGt)
	case '!':
		if lx.peekRune(0) == '=' {
			lx.advance()
			return mk(tNe)
		}
	case '+':
		return two('=', tPlusEq, tPlus)
	case '-':
		return mk(tMinus)
	case '*':
		return mk(tStar)
	case '/':
		return mk(tSlash)
	case '%':
		return mk(tPercent)
	case '^':
		return mk(tCaret)
	}
	t := mk(tBad)
	lx.diags.add(start, SyntaxError, "unexpected character %s", strconv.QuoteRune(r))
	return t
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// floatMayStartWithDot tells ".5" (a float) from "x.5" or "1..5" (a dot
// after a value).
func (lx *lexer) floatMayStartWithDot() bool {
	switch lx.prev {
	case tIdent, tRParen, tRBracket, tRBrace, tInt, tFloat, tString, tParam:
		return false
	}
	return true
}

func (lx *lexer) quotedIdent(start Pos) token {
	lx.advance() // opening backtick
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) {
			lx.diags.add(start, SyntaxError, "unterminated quoted name: '`' has no closing '`'")
			break
		}
		r := lx.advance()
		if r == '`' {
			if lx.peekRune(0) == '`' {
				lx.advance()
				b.WriteRune('`')
				continue
			}
			break
		}
		b.WriteRune(r)
	}
	return token{kind: tIdent, pos: start, end: lx.off, text: lx.src[start.Off:lx.off], val: b.String(), quoted: true}
}

func (lx *lexer) number(start Pos) token {
	isFloat := false
	if lx.peekRune(0) == '0' && (lx.peekRune(1) == 'x' || lx.peekRune(1) == 'X' || lx.peekRune(1) == 'o' || lx.peekRune(1) == 'O') {
		lx.advance()
		lx.advance()
		for lx.off < len(lx.src) && isIdentPart(lx.peekRune(0)) {
			lx.advance()
		}
	} else {
		for isDigit(lx.peekRune(0)) {
			lx.advance()
		}
		if lx.peekRune(0) == '.' && isDigit(lx.peekRune(1)) {
			isFloat = true
			lx.advance()
			for isDigit(lx.peekRune(0)) {
				lx.advance()
			}
		}
		if r := lx.peekRune(0); r == 'e' || r == 'E' {
			n := 1
			if s := lx.peekRune(1); s == '+' || s == '-' {
				n = 2
			}
			if isDigit(lx.peekRune(n)) {
				isFloat = true
				for ; n > 0; n-- {
					lx.advance()
				}
				for isDigit(lx.peekRune(0)) {
					lx.advance()
				}
			}
		}
		// A number glued to letters ("12abc") is one bad token.
		for lx.off < len(lx.src) && isIdentPart(lx.peekRune(0)) {
			lx.advance()
		}
	}
	t := token{kind: tInt, pos: start, end: lx.off, text: lx.src[start.Off:lx.off]}
	if isFloat {
		t.kind = tFloat
	}
	t.val = t.text
	return t
}

func (lx *lexer) str(start Pos, quote rune) token {
	lx.advance()
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) {
			lx.diags.add(start, SyntaxError, "unterminated string: %c has no closing %c", quote, quote)
			break
		}
		at := lx.pos()
		r := lx.advance()
		if r == quote {
			break
		}
		if r != '\\' {
			b.WriteRune(r)
			continue
		}
		if lx.off >= len(lx.src) {
			continue
		}
		e := lx.advance()
		switch e {
		case '\\', '\'', '"':
			b.WriteRune(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			hex := ""
			for i := 0; i < n && lx.off < len(lx.src); i++ {
				c := lx.peekRune(0)
				if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
					break
				}
				hex += string(lx.advance())
			}
			v, err := strconv.ParseUint(hex, 16, 32)
			if len(hex) != n || err != nil || !utf8.ValidRune(rune(v)) {
				lx.diags.add(at, SyntaxError, "invalid escape \\%c%s: expected %d hexadecimal digits of a valid code point", e, hex, n)
				continue
			}
			b.WriteRune(rune(v))
		default:
			lx.diags.add(at, SyntaxError, "invalid escape \\%c in a string (valid: \\\\ \\' \\\" \\n \\t \\r \\b \\f \\uXXXX)", e)
		}
	}
	return token{kind: tString, pos: start, end: lx.off, text: lx.src[start.Off:lx.off], val: b.String()}
}
