package backend

import (
	"fmt"
	"strings"
	"unicode"
)

// A Hint is the next step an answer suggests. It is written once, as text
// interleaved with the tool calls, parameters and settings it names, and
// rendered for whoever reads it: an agent that calls tools over MCP or
// HTTP reads `call impact with target_uid "…"`, a person at the command
// line reads `gitnexus impact --target-uid '…'`. Answers name parameters
// only in their hint, so the rest of an answer reads the same for both.
type Hint []hintPart

// Audience says how a hint is rendered.
type Audience int

// Audiences.
const (
	// ForAgent names tools and their parameters (MCP, HTTP).
	ForAgent Audience = iota
	// ForCLI names commands and their flags.
	ForCLI
)

type partKind int

const (
	partText    partKind = iota
	partCall             // call a tool, with arguments
	partAgain            // call the same tool again with these arguments
	partParam            // a parameter's name
	partSetting          // a parameter set to a value
	partRepeat           // the same call, repeated
)

type hintPart struct {
	kind partKind
	text string // partText
	tool string // partCall, partAgain
	args []hintArg
}

type hintArg struct {
	name  string
	value any
}

// hint joins its parts; strings are text.
func hint(parts ...any) Hint {
	h := make(Hint, 0, len(parts))
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			h = append(h, hintPart{kind: partText, text: p})
		case hintPart:
			h = append(h, p)
		default:
			panic(fmt.Sprintf("hint part of type %T", p))
		}
	}
	return h
}

// call names a tool to call, with arguments as name, value pairs.
func call(tool string, nameValues ...any) hintPart {
	return hintPart{kind: partCall, tool: tool, args: pairs(nameValues)}
}

// again is the same call repeated with other arguments (a next page).
func again(tool string, nameValues ...any) hintPart {
	return hintPart{kind: partAgain, tool: tool, args: pairs(nameValues)}
}

// repeat is the same call made again; the text after it says what changes.
func repeat() hintPart { return hintPart{kind: partRepeat} }

// param names a parameter.
func param(name string) hintPart { return hintPart{kind: partParam, args: []hintArg{{name: name}}} }

// setting is a parameter with the value to give it.
func setting(name string, value any) hintPart {
	return hintPart{kind: partSetting, args: []hintArg{{name: name, value: value}}}
}

func pairs(nameValues []any) []hintArg {
	if len(nameValues)%2 != 0 {
		panic("hint arguments come in name, value pairs")
	}
	out := make([]hintArg, 0, len(nameValues)/2)
	for i := 0; i < len(nameValues); i += 2 {
		out = append(out, hintArg{name: nameValues[i].(string), value: nameValues[i+1]})
	}
	return out
}

// Render writes the hint for one audience.
func (h Hint) Render(to Audience) string {
	var b strings.Builder
	for _, p := range h {
		switch p.kind {
		case partText:
			b.WriteString(p.text)
		case partCall:
			if to == ForCLI {
				b.WriteString("run `" + commandLine(p.tool, p.args) + "`")
				continue
			}
			b.WriteString("call " + p.tool)
			if len(p.args) > 0 {
				b.WriteString(" with " + agentArgs(p.args))
			}
		case partAgain:
			if to == ForCLI {
				b.WriteString("run the command again with `" + cliArgs(p.args) + "`")
				continue
			}
			b.WriteString("call " + p.tool + " again with " + agentArgs(p.args))
		case partRepeat:
			if to == ForCLI {
				b.WriteString("run the command again")
				continue
			}
			b.WriteString("call again")
		case partParam:
			if to == ForCLI {
				b.WriteString("`--" + FlagName(p.args[0].name) + "`")
				continue
			}
			b.WriteString(p.args[0].name)
		case partSetting:
			if to == ForCLI {
				b.WriteString("`" + cliArgs(p.args) + "`")
				continue
			}
			b.WriteString(agentArgs(p.args))
		}
	}
	return b.String()
}

// String renders the hint for an agent.
func (h Hint) String() string { return h.Render(ForAgent) }

func agentArgs(args []hintArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if s, ok := a.value.(string); ok {
			parts[i] = fmt.Sprintf("%s %q", a.name, s)
		} else {
			parts[i] = fmt.Sprintf("%s %v", a.name, a.value)
		}
	}
	return strings.Join(parts, " and ")
}

// CommandName is the command that runs a tool: its name with dashes
// (find_symbol → find-symbol); list_repos is `list`.
func CommandName(tool string) string {
	if tool == "list_repos" {
		return "list"
	}
	return strings.ReplaceAll(tool, "_", "-")
}

func commandLine(tool string, args []hintArg) string {
	s := "gitnexus " + CommandName(tool)
	if len(args) > 0 {
		s += " " + cliArgs(args)
	}
	return s
}

func cliArgs(args []hintArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		flag := "--" + FlagName(a.name)
		switch v := a.value.(type) {
		case bool:
			if v {
				parts[i] = flag
			} else {
				parts[i] = flag + "=false"
			}
		case string:
			parts[i] = flag + " " + shellQuote(v)
		default:
			parts[i] = fmt.Sprintf("%s %v", flag, v)
		}
	}
	return strings.Join(parts, " ")
}

// FlagName turns a parameter name (max_symbols, maxDepth) into the name of
// its command-line flag (max-symbols, max-depth).
func FlagName(param string) string {
	var b strings.Builder
	for i, r := range param {
		switch {
		case r == '_':
			b.WriteByte('-')
		case unicode.IsUpper(r):
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._/-:=,@+%", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// pickCandidate is the hint of an ambiguous name, for a tool whose exact
// id parameter is uidParam and whose other parameters narrowing a name
// are narrow.
func pickCandidate(uidParam string, narrow ...string) Hint {
	parts := []any{repeat(), " with ", param(uidParam), " set to one of the candidates"}
	sep := " (or narrow with "
	for _, n := range narrow {
		if n != "" {
			parts, sep = append(parts, sep, param(n)), " or "
		}
	}
	if sep == " or " {
		parts = append(parts, ")")
	}
	return hint(append(parts, ".")...)
}
