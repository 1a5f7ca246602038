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
//
// Names that cannot be package-level variables are left out here rather
// than in the resolver: parameters and locals of the function, predeclared
// identifiers, and names called as functions. On the standard library that
// keeps about a third of the 1.2 million names mentioned.
func (x *extraction) readRefs() {
	lines := lang.LineStarts(x.src)
	locals := map[int]map[string]bool{}
	for _, b := range x.facts.Bindings {
		if b.Scope >= 0 {
			if locals[b.Scope] == nil {
				locals[b.Scope] = map[string]bool{}
			}
			locals[b.Scope][b.Name] = true
		}
	}
	for i := range x.facts.Symbols {
		s := &x.facts.Symbols[i]
		if s.Kind != graph.KindFunction && s.Kind != graph.KindMethod || s.Abstract {
			continue
		}
		skip := locals[i]
		if skip == nil {
			skip = map[string]bool{}
		}
		for _, prm := range s.Params {
			skip[prm.Name] = true
		}
		for _, tp := range s.TypeParams {
			skip[tp.Name] = true
		}
		x.scanRefs(i, lines, skip)
	}
}

type refKey struct{ qualifier, name string }

type goToken struct {
	tok token.Token
	lit string
	off int
}

func (x *extraction) scanRefs(scope int, lines []int, locals map[string]bool) {
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
				q := toks[i-2].lit
				if at(i-2) == token.IDENT && at(i-3) != token.PERIOD && !locals[q] && at(i+1) != token.LPAREN {
					emit(q, t.lit, t.off)
				}
				continue
			}
			if locals[t.lit] || predeclared[t.lit] || at(i+1) == token.LPAREN {
				continue // a local, a builtin, or a call (a CALLS edge)
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
