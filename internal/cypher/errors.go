package cypher

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Pos is a position in the query text: a byte offset and the 1-based line
// and column (columns count characters, not bytes).
type Pos struct {
	Off, Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// ErrorKind says which stage found a problem.
type ErrorKind string

// Kinds of errors.
const (
	SyntaxError      ErrorKind = "syntax error"
	SemanticError    ErrorKind = "semantic error"
	UnsupportedError ErrorKind = "not supported"
	TypeError        ErrorKind = "type error"
	ArgumentError    ErrorKind = "argument error"
	LimitError       ErrorKind = "limit"
)

// Diagnostic is one problem at one place in the query.
type Diagnostic struct {
	Pos  Pos
	Kind ErrorKind
	Msg  string
}

// Error is every problem found in a query. Parse and resolve errors are
// collected so that one run reports all of them; runtime errors carry one
// diagnostic. Error() renders each with the query line and a caret under
// the column.
type Error struct {
	Query string
	Diags []Diagnostic
	// cause is wrapped for errors.Is (ErrTimeLimit, ErrMemoryLimit,
	// context errors).
	cause error
}

// ErrTimeLimit and ErrMemoryLimit are wrapped by the errors of queries that
// hit the time limit or the memory budget.
var (
	ErrTimeLimit   = errors.New("time limit")
	ErrMemoryLimit = errors.New("memory limit")
)

func (e *Error) Unwrap() error { return e.cause }

func (e *Error) Error() string {
	var b strings.Builder
	if len(e.Diags) > 1 {
		fmt.Fprintf(&b, "%d problems in the query:\n", len(e.Diags))
	}
	for i, d := range e.Diags {
		if i > 0 {
			b.WriteByte('\n')
		}
		if d.Pos.Line > 0 {
			fmt.Fprintf(&b, "%d:%d: %s: %s", d.Pos.Line, d.Pos.Col, d.Kind, d.Msg)
			if e.Query != "" {
				b.WriteString(caret(e.Query, d.Pos))
			}
		} else {
			fmt.Fprintf(&b, "%s: %s", d.Kind, d.Msg)
		}
	}
	return b.String()
}

// caret returns "\n  <line text>\n  <spaces>^" for pos in query. Tabs in
// the line are kept in the caret line so that the caret lines up.
func caret(query string, pos Pos) string {
	lines := strings.Split(query, "\n")
	if pos.Line < 1 || pos.Line > len(lines) {
		return ""
	}
	line := strings.TrimRight(lines[pos.Line-1], "\r")
	var pad strings.Builder
	col := 1
	for _, r := range line {
		if col >= pos.Col {
			break
		}
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
		col++
	}
	return "\n  " + line + "\n  " + pad.String() + "^"
}

// posAt computes the position of byte offset off in src.
func posAt(src string, off int) Pos {
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	for i := 0; i < off; {
		r, n := utf8.DecodeRuneInString(src[i:])
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += n
	}
	return Pos{Off: off, Line: line, Col: col}
}

// diagList collects diagnostics, capped so that garbage input does not
// produce thousands of lines.
type diagList struct {
	diags []Diagnostic
}

const maxDiagnostics = 10

func (l *diagList) add(pos Pos, kind ErrorKind, format string, args ...any) {
	if len(l.diags) >= maxDiagnostics {
		return
	}
	for _, d := range l.diags {
		if d.Pos == pos && d.Kind == kind {
			return // one problem per place
		}
	}
	l.diags = append(l.diags, Diagnostic{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)})
}

func (l *diagList) err(query string) error {
	if len(l.diags) == 0 {
		return nil
	}
	return &Error{Query: query, Diags: l.diags}
}

// runtimeError is an error raised while evaluating an expression; the
// executor turns it into an *Error with the query text.
type runtimeError struct {
	pos   Pos
	kind  ErrorKind
	msg   string
	cause error
}

func (e *runtimeError) Error() string { return e.msg }
func (e *runtimeError) Unwrap() error { return e.cause }

func typeErr(pos Pos, format string, args ...any) error {
	return &runtimeError{pos: pos, kind: TypeError, msg: fmt.Sprintf(format, args...)}
}

func argErr(pos Pos, format string, args ...any) error {
	return &runtimeError{pos: pos, kind: ArgumentError, msg: fmt.Sprintf(format, args...)}
}

// asQueryError turns any error raised while running query into an *Error
// that shows where it happened.
func asQueryError(query string, err error) error {
	if err == nil {
		return nil
	}
	var qe *Error
	if errors.As(err, &qe) {
		return err
	}
	var re *runtimeError
	if errors.As(err, &re) {
		return &Error{Query: query, Diags: []Diagnostic{{Pos: re.pos, Kind: re.kind, Msg: re.msg}}, cause: re.cause}
	}
	return err
}
