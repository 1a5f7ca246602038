package agentsetup

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A JSON document read with the byte offsets of every value, so that an edit
// can touch exactly the bytes it means to. It reads JSONC too (// and /* */
// comments, trailing commas), which OpenCode and Gemini CLI accept; strict
// JSON is a subset.

// jsonNode is one value and the bytes [start, end) it occupies.
type jsonNode struct {
	start, end int
	kind       byte // '{' object, '[' array, '"' string, 'v' number or literal
	members    []jsonMember
	elems      []*jsonNode
}

// jsonMember is one member of an object.
type jsonMember struct {
	keyStart int // offset of the key's opening quote
	key      string
	value    *jsonNode
	comma    int // offset of the comma after the value, -1 when none follows
}

// member returns the index of the member named key, or -1.
func (n *jsonNode) member(key string) int {
	for i, m := range n.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

// decode returns the value as encoding/json would unmarshal it into an any.
func (n *jsonNode) decode(src []byte) any {
	switch n.kind {
	case '{':
		m := make(map[string]any, len(n.members))
		for _, mem := range n.members {
			m[mem.key] = mem.value.decode(src)
		}
		return m
	case '[':
		a := make([]any, len(n.elems))
		for i, e := range n.elems {
			a[i] = e.decode(src)
		}
		return a
	}
	var v any
	_ = json.Unmarshal(src[n.start:n.end], &v) // the parser checked the syntax
	return v
}

// jsonSyntaxError is a parse error with its line and column (1-based).
type jsonSyntaxError struct {
	line, col int
	msg       string
}

func (e *jsonSyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

type jsonParser struct {
	src []byte
	pos int
}

// parseJSONC parses a whole document: one value surrounded by whitespace and
// comments (a UTF-8 byte order mark is allowed before it).
func parseJSONC(src []byte) (*jsonNode, error) {
	p := &jsonParser{src: src}
	if strings.HasPrefix(string(src), "\ufeff") {
		p.pos = 3
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.pos != len(src) {
		return nil, p.errorf("unexpected %q after the value", p.src[p.pos])
	}
	return n, nil
}

func (p *jsonParser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range p.src[:min(p.pos, len(p.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &jsonSyntaxError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// skip passes whitespace and comments.
func (p *jsonParser) skip() error {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			end := strings.Index(string(p.src[p.pos+2:]), "*/")
			if end < 0 {
				return p.errorf("unterminated /* comment")
			}
			p.pos += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

func (p *jsonParser) value() (*jsonNode, error) {
	if p.pos >= len(p.src) {
		return nil, p.errorf("unexpected end of file")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		start := p.pos
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &jsonNode{start: start, end: p.pos, kind: '"'}, nil
	default:
		start := p.pos
		for p.pos < len(p.src) && strings.IndexByte("+-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", p.src[p.pos]) >= 0 {
			p.pos++
		}
		var v any
		if p.pos == start || json.Unmarshal(p.src[start:p.pos], &v) != nil {
			p.pos = start
			return nil, p.errorf("expected a value")
		}
		return &jsonNode{start: start, end: p.pos, kind: 'v'}, nil
	}
}

// str reads a string literal and returns it decoded.
func (p *jsonParser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '\n':
			return "", p.errorf("newline in string")
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal(p.src[start:p.pos], &s); err != nil {
				p.pos = start
				return "", p.errorf("bad string: %v", err)
			}
			return s, nil
		}
		p.pos++
	}
	p.pos = start
	return "", p.errorf("unterminated string")
}

func (p *jsonParser) object() (*jsonNode, error) {
	n := &jsonNode{start: p.pos, kind: '{'}
	p.pos++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) {
			return nil, p.errorf("unterminated object")
		}
		if p.src[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if len(n.members) > 0 && n.members[len(n.members)-1].comma < 0 {
			return nil, p.errorf("expected , or } after a member")
		}
		if p.src[p.pos] != '"' {
			return nil, p.errorf("expected a member name in quotes")
		}
		m := jsonMember{keyStart: p.pos, comma: -1}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		m.key = key
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.errorf("expected : after the member name %q", key)
		}
		p.pos++
		if err := p.skip(); err != nil {
			return nil, err
		}
		if m.value, err = p.value(); err != nil {
			return nil, err
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			m.comma = p.pos
			p.pos++
		}
		n.members = append(n.members, m)
	}
}

func (p *jsonParser) array() (*jsonNode, error) {
	n := &jsonNode{start: p.pos, kind: '['}
	p.pos++
	comma := true
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) {
			return nil, p.errorf("unterminated array")
		}
		if p.src[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if !comma {
			return nil, p.errorf("expected , or ] after an element")
		}
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, e)
		if err := p.skip(); err != nil {
			return nil, err
		}
		comma = p.pos < len(p.src) && p.src[p.pos] == ','
		if comma {
			p.pos++
		}
	}
}
