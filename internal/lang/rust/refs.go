package rust

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/lang"
)

// readRefs records the constants and statics each function may read or
// write: names and paths whose last segment is written in upper case
// (`LIMIT`, `config::LIMIT`), once per function, the Rust naming
// convention for them. Function bodies are scanned as tokens, skipping
// comments, strings and characters: a query match per identifier would
// cost more than the parse. Locals of the function are left out, and so
// are macro names and calls.
func (x *extraction) readRefs() {
	var lines []int
	locals := map[int]map[string]bool{}
	for _, b := range x.facts.Bindings {
		if locals[b.Scope] == nil {
			locals[b.Scope] = map[string]bool{}
		}
		locals[b.Scope][b.Name] = true
	}
	for i := range x.facts.Symbols {
		s := &x.facts.Symbols[i]
		if !s.Kind.IsCallable() || s.Abstract {
			continue
		}
		if lines == nil {
			lines = lang.LineStarts(x.src)
		}
		x.scanRefs(i, lines, locals[i])
	}
}

func isUpperName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter && len(s) > 1
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentPart(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

func (x *extraction) scanRefs(scope int, lines []int, locals map[string]bool) {
	s := &x.facts.Symbols[scope]
	body := x.src[s.StartByte:s.EndByte]
	seen := map[string]bool{}
	var path []string
	pathStart := 0
	prevDot := false
	flush := func(next byte) {
		defer func() { path = path[:0] }()
		if len(path) == 0 || !isUpperName(path[len(path)-1]) || next == '!' || next == '(' || prevDot {
			return
		}
		if len(path) == 1 && locals[path[0]] || path[0] == "Self" || path[0] == "self" {
			return
		}
		key := ""
		for _, p := range path {
			key += p + "::"
		}
		if seen[key] {
			return
		}
		seen[key] = true
		e := &lang.Expr{Kind: lang.ExprIdent, Name: path[0]}
		for _, p := range path[1:] {
			e = &lang.Expr{Kind: lang.ExprMember, Name: p, X: e}
		}
		line := sort.SearchInts(lines, int(s.StartByte)+pathStart+1)
		x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: scope, Expr: e, Line: line})
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '/' && i+1 < len(body) && body[i+1] == '/':
			for i < len(body) && body[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(body) && body[i+1] == '*':
			i += 2
			for i+1 < len(body) && !(body[i] == '*' && body[i+1] == '/') {
				i++
			}
			i += 2
		case c == '"':
			i++
			for i < len(body) && body[i] != '"' {
				if body[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '\'' && i+2 < len(body) && (body[i+2] == '\'' || body[i+1] == '\\'):
			i++
			for i < len(body) && body[i] != '\'' {
				if body[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == 'r' && i+1 < len(body) && (body[i+1] == '"' || body[i+1] == '#') && (i == 0 || !isIdentPart(body[i-1])):
			// a raw string: r"...", r#"..."#
			j := i + 1
			hashes := 0
			for j < len(body) && body[j] == '#' {
				hashes++
				j++
			}
			if j >= len(body) || body[j] != '"' {
				i++
				continue
			}
			j++
			for j < len(body) {
				if body[j] == '"' {
					k := 0
					for k < hashes && j+1+k < len(body) && body[j+1+k] == '#' {
						k++
					}
					if k == hashes {
						j += 1 + k
						break
					}
				}
				j++
			}
			i = j
		case isIdentStart(c):
			j := i
			for j < len(body) && isIdentPart(body[j]) {
				j++
			}
			if len(path) == 0 {
				pathStart = i
				prevDot = i > 0 && body[i-1] == '.'
			}
			path = append(path, string(body[i:j]))
			if j+1 < len(body) && body[j] == ':' && body[j+1] == ':' && j+2 < len(body) && isIdentStart(body[j+2]) {
				i = j + 2
				continue
			}
			next := byte(0)
			k := j
			for k < len(body) && (body[k] == ' ' || body[k] == '\t') {
				k++
			}
			if k < len(body) {
				next = body[k]
			}
			flush(next)
			i = j
		default:
			i++
		}
	}
}
