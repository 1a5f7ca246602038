package golang

import (
	"go/scanner"
	"go/token"
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// readRefs records the names each function and method mentions, once per
// name: `limit` as an identifier and `config.Limit` as a qualified name. The
// resolver keeps those that are package-level variables or constants. The
// bodies are tokenised with go/scanner rather than queried: a query match
// per identifier cost more than the whole parse on the standard library.
func (x *extraction) readRefs() {
	lines := lineStarts(x.src)
	for i := range x.facts.Symbols {
		s := &x.facts.Symbols[i]
		if s.Kind != graph.KindFunction && s.Kind != graph.KindMethod || s.Abstract {
			continue
		}
		x.scanRefs(i, lines)
	}
}

type refKey struct{ qualifier, name string }

type goToken struct {
	tok token.Token
	lit string
	off int
}

func (x *extraction) scanRefs(scope int, lines []int) {
	s := &x.facts.Symbols[scope]
	body := x.src[s.StartByte:s.EndByte]
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(body))
	var sc scanner.Scanner
	sc.Init(file, body, nil, 0)
	var toks []goToken
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT {
			continue
		}
		toks = append(toks, goToken{tok, lit, file.Offset(pos)})
	}
	at := func(i int) token.Token {
		if i < 0 || i >= len(toks) {
			return token.ILLEGAL
		}
		return toks[i].tok
	}
	seen := map[refKey]bool{}
	emit := func(qualifier, name string, off int) {
		k := refKey{qualifier, name}
		if seen[k] || name == "_" {
			return
		}
		seen[k] = true
		e := &lang.Expr{Kind: lang.ExprIdent, Name: name}
		if qualifier != "" {
			e = &lang.Expr{Kind: lang.ExprMember, Name: name, X: &lang.Expr{Kind: lang.ExprIdent, Name: qualifier}}
		}
		line := sort.SearchInts(lines, int(s.StartByte)+off+1)
		x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: scope, Expr: e, Line: line})
	}
	inCase := false
	for i, t := range toks {
		switch t.tok {
		case token.CASE:
			inCase = true
		case token.COLON:
			inCase = false
		case token.IDENT:
			if at(i-1) == token.PERIOD {
				// x.Name: a qualified name when x is a plain identifier;
				// a field or method of an expression otherwise.
				if at(i-2) == token.IDENT && at(i-3) != token.PERIOD {
					emit(toks[i-2].lit, t.lit, t.off)
				}
				continue
			}
			// `Name:` after `{`, `,` or a statement boundary is a
			// composite-literal key or a label, unless inside a case list.
			if at(i+1) == token.COLON && !inCase {
				switch at(i - 1) {
				case token.LBRACE, token.COMMA, token.SEMICOLON:
					continue
				}
			}
			emit("", t.lit, t.off)
		}
	}
}

// lineStarts returns the byte offset at which each line starts, with a
// sentinel, so that sort.SearchInts(lines, off+1) is the 1-based line of off.
func lineStarts(src []byte) []int {
	out := []int{0}
	for i, b := range src {
		if b == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}
