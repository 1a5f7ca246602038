package golang

import (
	"bytes"
	"path"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Files for different platforms declare the same names. Every file is
// indexed, but where a name is declared more than once the resolver prefers
// the declaration that the default build compiles: linux/amd64 with cgo,
// the way a developer on this kind of machine builds.

var knownOS = map[string]bool{}
var knownArch = map[string]bool{}

func init() {
	for _, s := range strings.Fields("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos") {
		knownOS[s] = true
	}
	for _, s := range strings.Fields("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm") {
		knownArch[s] = true
	}
}

// tagSet reports whether a build tag holds in the default build.
func tagSet(tag string) bool {
	switch tag {
	case "linux", "amd64", "unix", "gc", "cgo":
		return true
	}
	if strings.HasPrefix(tag, "go1.") {
		return true
	}
	return false
}

// defaultBuild reports whether the default build compiles the file, from
// its name (_GOOS, _GOARCH suffixes) and its //go:build line.
func defaultBuild(f *lang.FileFacts) bool {
	name := strings.TrimSuffix(path.Base(f.Path), ".go")
	name = strings.TrimSuffix(name, "_test")
	parts := strings.Split(name, "_")
	if n := len(parts); n >= 2 {
		last := parts[n-1]
		if knownArch[last] {
			if last != "amd64" {
				return false
			}
			if n >= 3 && knownOS[parts[n-2]] && parts[n-2] != "linux" {
				return false
			}
		} else if knownOS[last] && last != "linux" {
			return false
		}
	}
	if f.Constraint == "" {
		return true
	}
	ok, _ := evalConstraint(f.Constraint)
	return ok
}

// buildConstraint returns the expression of the //go:build line that
// precedes the package clause, or "".
func buildConstraint(src []byte) string {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		t := bytes.TrimSpace(line)
		if rest, ok := bytes.CutPrefix(t, []byte("//go:build ")); ok {
			return string(bytes.TrimSpace(rest))
		}
		if bytes.HasPrefix(t, []byte("package ")) {
			return ""
		}
	}
	return ""
}

// evalConstraint evaluates a //go:build expression (||, &&, !, parentheses,
// tags) against the default build. ok is false on a malformed expression,
// which then counts as not built.
func evalConstraint(expr string) (value, ok bool) {
	ev := constraintEval{toks: tokenize(expr)}
	v := ev.or()
	if ev.err || ev.pos != len(ev.toks) {
		return false, false
	}
	return v, true
}

type constraintEval struct {
	toks []string
	pos  int
	err  bool
}

func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')' || c == '!':
			out = append(out, s[i:i+1])
			i++
		case strings.HasPrefix(s[i:], "&&"), strings.HasPrefix(s[i:], "||"):
			out = append(out, s[i:i+2])
			i += 2
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t()!&|", s[j]) < 0 {
				j++
			}
			if j == i {
				j++ // a lone '&' or '|'
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

func (e *constraintEval) peek() string {
	if e.pos < len(e.toks) {
		return e.toks[e.pos]
	}
	return ""
}

func (e *constraintEval) or() bool {
	v := e.and()
	for e.peek() == "||" {
		e.pos++
		r := e.and()
		v = v || r
	}
	return v
}

func (e *constraintEval) and() bool {
	v := e.not()
	for e.peek() == "&&" {
		e.pos++
		r := e.not()
		v = v && r
	}
	return v
}

func (e *constraintEval) not() bool {
	switch t := e.peek(); t {
	case "!":
		e.pos++
		return !e.not()
	case "(":
		e.pos++
		v := e.or()
		if e.peek() != ")" {
			e.err = true
			return false
		}
		e.pos++
		return v
	case "", ")", "&&", "||":
		e.err = true
		return false
	default:
		e.pos++
		if strings.Trim(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
			e.err = true
		}
		return tagSet(t)
	}
}
