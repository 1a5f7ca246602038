package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ErrUnknownTool is returned by CallTool for a name no tool has: a
// different failure from a tool that ran and failed.
var ErrUnknownTool = errors.New("unknown tool")

// ArgError is a tool argument that is missing, of the wrong type or out of
// range. Transports report it as a failed call, never as a crash.
type ArgError struct {
	Param string
	Msg   string
	// say, when set, is the message naming other parameters, rendered for
	// the reader (Message); Msg is its agent rendering.
	say Hint
}

// argError is an ArgError whose message names parameters.
func argError(param string, parts ...any) *ArgError {
	h := hint(parts...)
	return &ArgError{Param: param, Msg: h.Render(ForAgent), say: h}
}

func (e *ArgError) Error() string { return fmt.Sprintf("argument %q: %s", e.Param, e.Msg) }

// Message is the error's message rendered for the audience, without the
// parameter's own name.
func (e *ArgError) Message(to Audience) string {
	if e.say != nil {
		return e.say.Render(to)
	}
	return e.Msg
}

// ParamType is the JSON type of a tool parameter.
type ParamType string

// Parameter types.
const (
	TypeString  ParamType = "string"
	TypeInteger ParamType = "integer"
	TypeNumber  ParamType = "number"
	TypeBoolean ParamType = "boolean"
	TypeArray   ParamType = "array" // of strings
	TypeObject  ParamType = "object"
)

// Param describes one tool parameter; the MCP input schema is built from
// these, and Args checks calls against them.
type Param struct {
	Name        string
	Type        ParamType
	Description string
	Default     any
	Min, Max    *float64
	Enum        []string
	Required    bool
	// Aliases are other names accepted for the parameter (names used by
	// earlier versions of the tools), never listed in the schema.
	Aliases []string
}

// Tool is one tool of the table every transport serves.
type Tool struct {
	Name        string
	Title       string
	Description string
	Params      []Param
	// ReadOnly: the tool changes nothing (all but rename).
	ReadOnly bool
	// IndexOnly: the tool's answer is a function of the index and the
	// arguments (it reads no work tree, runs no git), so a server may
	// reuse it while the index is the same build (AnswerKey). A call that
	// still reads the repository says so in its Result (volatile).
	IndexOnly bool
	// Aliases are other names the tool answers to.
	Aliases []string
	run     func(ctx context.Context, b *Backend, a *Args) (*Result, error)
}

// Result is what a tool returns: structured data for programs, a short
// markdown rendering for the model, and a one-line hint at the next step.
// Text names no tool parameter: parameters are named only in the hint,
// which is rendered for the reader (MarkdownFor).
type Result struct {
	Data any
	Text string
	Hint Hint
	// Ambiguous: the call named several symbols; Data lists the
	// candidates and nothing else was computed.
	Ambiguous bool
	// Index is the build of the index the answer comes from and whether
	// the repository changed since; nil for answers about no single
	// repository (list_repos).
	Index *IndexState
	// volatile: the answer depends on more than the index after all: the
	// call read the repository's git data or work tree (a revision git
	// resolved, a past file's source), or a service it uses failed (no
	// vector ranking on an index with embeddings). It may not be reused
	// (CacheableAnswer).
	volatile bool
}

// Markdown is the text rendering for an agent (MarkdownFor ForAgent).
func (r *Result) Markdown() string { return r.MarkdownFor(ForAgent) }

// MarkdownFor is the text rendering with the hint appended, rendered for
// the audience, after a line naming the repository and one saying so when
// the index is stale.
func (r *Result) MarkdownFor(to Audience) string {
	text := r.Index.repoLine() + r.Index.staleLine() + r.Text
	if len(r.Hint) == 0 {
		return text
	}
	return strings.TrimRight(text, "\n") + "\n\n" + "Next: " + r.Hint.Render(to) + "\n"
}

// Structured is the structured result transports send: Data, with the
// index object as its "index" member when there is one.
func (r *Result) Structured() any {
	if r.Index == nil {
		return r.Data
	}
	return structured{data: r.Data, index: r.Index}
}

// Tools returns the tool table, sorted by name.
func Tools() []*Tool {
	out := append([]*Tool(nil), toolTable()...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupTool finds a tool by name or alias.
func LookupTool(name string) (*Tool, bool) {
	for _, t := range toolTable() {
		if t.Name == name {
			return t, true
		}
		for _, a := range t.Aliases {
			if a == name {
				return t, true
			}
		}
	}
	return nil, false
}

// CallTool runs the tool called name with JSON-like arguments.
func (b *Backend) CallTool(ctx context.Context, name string, args map[string]any) (*Result, error) {
	t, ok := LookupTool(name)
	if !ok {
		return nil, fmt.Errorf("%w %q: the tools are %s", ErrUnknownTool, name, strings.Join(toolNames(), ", "))
	}
	a, err := newArgs(t, args)
	if err != nil {
		return nil, err
	}
	return t.run(ctx, b, a)
}

func toolNames() []string {
	var out []string
	for _, t := range Tools() {
		out = append(out, t.Name)
	}
	return out
}

// InputSchema is the JSON Schema (2020-12) of the tool's arguments.
func (t *Tool) InputSchema() map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range t.Params {
		s := map[string]any{"type": string(p.Type), "description": p.Description}
		if p.Type == TypeArray {
			s["items"] = map[string]any{"type": "string"}
		}
		if p.Default != nil {
			s["default"] = p.Default
		}
		if p.Min != nil {
			s["minimum"] = *p.Min
		}
		if p.Max != nil {
			s["maximum"] = *p.Max
		}
		if len(p.Enum) > 0 {
			s["enum"] = p.Enum
		}
		props[p.Name] = s
		if p.Required {
			required = append(required, p.Name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema
}

// Args are a call's checked arguments.
type Args struct {
	tool *Tool
	vals map[string]any
}

// newArgs checks the raw arguments against the tool's parameters: unknown
// names, wrong types, out-of-range numbers and missing required values are
// errors that name the parameter.
func newArgs(t *Tool, raw map[string]any) (*Args, error) {
	a := &Args{tool: t, vals: map[string]any{}}
	byName := map[string]*Param{}
	for i := range t.Params {
		p := &t.Params[i]
		byName[p.Name] = p
		for _, al := range p.Aliases {
			byName[al] = p
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := raw[k]
		p, ok := byName[k]
		if !ok {
			return nil, &ArgError{Param: k, Msg: fmt.Sprintf("%s takes no such argument; it takes %s", t.Name, paramNames(t))}
		}
		if v == nil {
			continue
		}
		cv, err := convert(p, v)
		if err != nil {
			return nil, err
		}
		if prev, dup := a.vals[p.Name]; dup && fmt.Sprint(prev) != fmt.Sprint(cv) {
			return nil, &ArgError{Param: k, Msg: fmt.Sprintf("conflicts with %q given too", p.Name)}
		}
		a.vals[p.Name] = cv
	}
	for _, p := range t.Params {
		if _, ok := a.vals[p.Name]; !ok && p.Required {
			return nil, &ArgError{Param: p.Name, Msg: "is required"}
		}
	}
	return a, nil
}

func paramNames(t *Tool) string {
	var names []string
	for _, p := range t.Params {
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func convert(p *Param, v any) (any, error) {
	bad := func(want string) error {
		return &ArgError{Param: p.Name, Msg: fmt.Sprintf("must be %s, got %s", want, describe(v))}
	}
	switch p.Type {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return nil, bad("a string")
		}
		if len(p.Enum) > 0 && !contains(p.Enum, s) {
			return nil, &ArgError{Param: p.Name, Msg: fmt.Sprintf("must be one of %s, got %q", strings.Join(p.Enum, ", "), s)}
		}
		return s, nil
	case TypeBoolean:
		switch b := v.(type) {
		case bool:
			return b, nil
		case string:
			switch strings.ToLower(b) {
			case "true":
				return true, nil
			case "false":
				return false, nil
			}
		}
		return nil, bad("a boolean")
	case TypeInteger, TypeNumber:
		numberWord := "a number"
		if p.Type == TypeInteger {
			numberWord = "an integer"
		}
		var f float64
		switch n := v.(type) {
		case float64:
			f = n
		case int:
			f = float64(n)
		case int64:
			f = float64(n)
		case json.Number:
			x, err := n.Float64()
			if err != nil {
				return nil, bad(numberWord)
			}
			f = x
		default:
			return nil, bad(numberWord)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, bad("a finite number")
		}
		if p.Type == TypeInteger && f != math.Trunc(f) {
			return nil, bad("an integer")
		}
		if p.Min != nil && f < *p.Min {
			return nil, &ArgError{Param: p.Name, Msg: fmt.Sprintf("must be at least %v, got %v", *p.Min, f)}
		}
		if p.Max != nil && f > *p.Max {
			return nil, &ArgError{Param: p.Name, Msg: fmt.Sprintf("must be at most %v, got %v", *p.Max, f)}
		}
		return f, nil
	case TypeArray:
		switch arr := v.(type) {
		case []any:
			out := make([]string, 0, len(arr))
			for _, e := range arr {
				s, ok := e.(string)
				if !ok {
					return nil, bad("a list of strings")
				}
				out = append(out, s)
			}
			return out, nil
		case []string:
			return arr, nil
		case string: // "CALLS,IMPORTS" from a command line
			var out []string
			for _, s := range strings.Split(arr, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
			return out, nil
		}
		return nil, bad("a list of strings")
	case TypeObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, bad("an object")
		}
		return m, nil
	}
	return nil, fmt.Errorf("parameter %q has no type", p.Name)
}

func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int, int64, json.Number:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func (a *Args) param(name string) *Param {
	for i := range a.tool.Params {
		if a.tool.Params[i].Name == name {
			return &a.tool.Params[i]
		}
	}
	panic("backend: tool " + a.tool.Name + " has no parameter " + name)
}

// String returns a string argument or its default.
func (a *Args) String(name string) string {
	p := a.param(name)
	if v, ok := a.vals[name]; ok {
		return v.(string)
	}
	if s, ok := p.Default.(string); ok {
		return s
	}
	return ""
}

// Int returns an integer argument or its default.
func (a *Args) Int(name string) int {
	p := a.param(name)
	if v, ok := a.vals[name]; ok {
		return int(v.(float64))
	}
	switch d := p.Default.(type) {
	case int:
		return d
	case float64:
		return int(d)
	}
	return 0
}

// Float returns a number argument or its default.
func (a *Args) Float(name string) float64 {
	p := a.param(name)
	if v, ok := a.vals[name]; ok {
		return v.(float64)
	}
	switch d := p.Default.(type) {
	case int:
		return float64(d)
	case float64:
		return d
	}
	return 0
}

// Bool returns a boolean argument or its default.
func (a *Args) Bool(name string) bool {
	p := a.param(name)
	if v, ok := a.vals[name]; ok {
		return v.(bool)
	}
	b, _ := p.Default.(bool)
	return b
}

// Strings returns a list argument or its default.
func (a *Args) Strings(name string) []string {
	p := a.param(name)
	if v, ok := a.vals[name]; ok {
		return v.([]string)
	}
	d, _ := p.Default.([]string)
	return d
}

// Object returns an object argument (nil when absent).
func (a *Args) Object(name string) map[string]any {
	a.param(name)
	if v, ok := a.vals[name]; ok {
		return v.(map[string]any)
	}
	return nil
}

// Has reports whether the call gave the argument.
func (a *Args) Has(name string) bool {
	a.param(name)
	_, ok := a.vals[name]
	return ok
}

func num(f float64) *float64 { return &f }
