package agentsetup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Surgical edits of a JSON or JSONC configuration file: set or remove one
// member of one object, writing only the bytes of that member (and the comma
// it needs). Insertion and removal are inverses: removing what was inserted
// gives back the original bytes.

// jsonObject is an object whose members keep their order when written.
type jsonObject []jsonField

// jsonField is one member of a jsonObject; value is a string, a bool, a
// []string or a jsonObject.
type jsonField struct {
	key   string
	value any
}

// jsonEntry is what setup puts in a JSON configuration file: the member key
// of the object container (a member of the root object).
type jsonEntry struct {
	container string
	key       string
	value     jsonObject
}

// jsonHints are what removal needs that the text cannot tell.
type jsonHints struct {
	// CreatedContainer: setup added the container object itself.
	CreatedContainer bool `json:"createdContainer,omitempty"`
	// EmptyInner is the text between the braces of the object the entry
	// went into, when that object was empty (nil when it was not).
	EmptyInner *string `json:"emptyInner,omitempty"`
	// Previous is the value of an entry of the same name that setup
	// replaced; removal puts it back.
	Previous string `json:"previous,omitempty"`
}

// jsonLayout is how a file writes its structure.
type jsonLayout struct {
	nl   string // "\n" or "\r\n"
	unit string // one level of indentation
}

func detectLayout(src []byte, root *jsonNode) jsonLayout {
	l := jsonLayout{nl: "\n", unit: "  "}
	if bytes.Contains(src, []byte("\r\n")) {
		l.nl = "\r\n"
	}
	if len(root.members) > 0 {
		if ind, own := lineIndent(src, root.members[0].keyStart); own {
			if outer := lineLead(src, root.start); strings.HasPrefix(ind, outer) && len(ind) > len(outer) {
				l.unit = ind[len(outer):]
			}
		}
	}
	return l
}

// lineIndent returns the whitespace between the start of off's line and
// off, and whether there is nothing else before off on that line.
func lineIndent(src []byte, off int) (string, bool) {
	start := lineStart(src, off)
	for _, c := range src[start:off] {
		if c != ' ' && c != '\t' {
			return "", false
		}
	}
	return string(src[start:off]), true
}

// lineLead returns the leading whitespace of off's line.
func lineLead(src []byte, off int) string {
	start := lineStart(src, off)
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEndAfter returns where a member's line ends when only blanks and
// comments follow its value (and comma) on that line: the offset of the
// line break. Otherwise it returns the offset just after the value or comma.
func lineEndAfter(src []byte, m jsonMember) int {
	pos := m.value.end
	if m.comma >= 0 {
		pos = m.comma + 1
	}
	q := pos
	for q < len(src) {
		switch {
		case src[q] == ' ' || src[q] == '\t':
			q++
		case bytes.HasPrefix(src[q:], []byte("//")):
			for q < len(src) && src[q] != '\n' {
				q++
			}
			if q > 0 && q <= len(src) && src[q-1] == '\r' {
				q--
			}
			return q
		case bytes.HasPrefix(src[q:], []byte("/*")):
			end := bytes.Index(src[q+2:], []byte("*/"))
			if end < 0 || bytes.IndexByte(src[q:q+2+end], '\n') >= 0 {
				return pos
			}
			q += 2 + end + 2
		case src[q] == '\n' || bytes.HasPrefix(src[q:], []byte("\r\n")):
			return q
		default:
			return pos
		}
	}
	return q
}

// jsonString writes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// render writes v; objects span lines indented from indent unless inline.
func render(v any, indent string, l jsonLayout, inline bool) string {
	switch v := v.(type) {
	case string:
		return jsonString(v)
	case bool:
		return fmt.Sprint(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = jsonString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case jsonObject:
		if len(v) == 0 {
			return "{}"
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, f := range v {
			if inline {
				if i > 0 {
					b.WriteString(", ")
				}
			} else {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(l.nl + indent + l.unit)
			}
			b.WriteString(jsonString(f.key) + ": " + render(f.value, indent+l.unit, l, inline))
		}
		if !inline {
			b.WriteString(l.nl + indent)
		}
		b.WriteByte('}')
		return b.String()
	}
	panic(fmt.Sprintf("render: unexpected %T", v))
}

// plain turns v into what encoding/json decodes its rendering to.
func plain(v any) any {
	switch v := v.(type) {
	case []string:
		a := make([]any, len(v))
		for i, s := range v {
			a[i] = s
		}
		return a
	case jsonObject:
		m := make(map[string]any, len(v))
		for _, f := range v {
			m[f.key] = plain(f.value)
		}
		return m
	}
	return v
}

// splice replaces src[from:to] with text.
func splice(src []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(src)-(to-from)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

// insertMember adds key: value as the last member of obj.
func insertMember(src []byte, obj *jsonNode, key string, value any, l jsonLayout) (out []byte, emptyInner *string) {
	if len(obj.members) == 0 {
		inner := string(src[obj.start+1 : obj.end-1])
		lead := lineLead(src, obj.start)
		text := l.nl + lead + l.unit + jsonString(key) + ": " + render(value, lead+l.unit, l, false) + l.nl + lead
		return splice(src, obj.start+1, obj.end-1, text), &inner
	}
	last := obj.members[len(obj.members)-1]
	ind, own := lineIndent(src, last.keyStart)
	var text string
	if own {
		text = l.nl + ind + jsonString(key) + ": " + render(value, ind, l, false)
	} else {
		text = " " + jsonString(key) + ": " + render(value, "", l, true)
	}
	at := lineEndAfter(src, last)
	if last.comma >= 0 {
		return splice(src, at, at, text+","), nil
	}
	out = splice(src, at, at, text)
	return splice(out, last.value.end, last.value.end, ","), nil
}

// removeMember deletes member i of obj, undoing insertMember when it was
// the last; emptyInner is what an emptied object holds between its braces.
func removeMember(src []byte, obj *jsonNode, i int, emptyInner *string) []byte {
	m := obj.members[i]
	switch {
	case len(obj.members) == 1:
		inner := ""
		if emptyInner != nil {
			inner = *emptyInner
		}
		return splice(src, obj.start+1, obj.end-1, inner)
	case i == len(obj.members)-1:
		prev := obj.members[i-1]
		from := lineEndAfter(src, prev)
		if m.comma >= 0 {
			return splice(src, from, m.comma+1, "")
		}
		out := splice(src, from, m.value.end, "")
		return splice(out, prev.comma, prev.comma+1, "")
	default:
		next := obj.members[i+1]
		from, to := m.keyStart, next.keyStart
		_, ownM := lineIndent(src, m.keyStart)
		_, ownN := lineIndent(src, next.keyStart)
		if ownM && ownN {
			from, to = lineStart(src, m.keyStart), lineStart(src, next.keyStart)
		}
		return splice(src, from, to, "")
	}
}

// rootObject parses src and returns its root, which must be an object. An
// empty file reads as {}.
func rootObject(src []byte) ([]byte, *jsonNode, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	root, err := parseJSONC(src)
	if err != nil {
		return nil, nil, err
	}
	if root.kind != '{' {
		return nil, nil, fmt.Errorf("the file holds a JSON value that is not an object")
	}
	return src, root, nil
}

// installJSON puts e into src. changed is false when an equal entry is
// already there.
func installJSON(src []byte, e jsonEntry) (out []byte, h jsonHints, changed bool, err error) {
	src, root, err := rootObject(src)
	if err != nil {
		return nil, h, false, err
	}
	l := detectLayout(src, root)
	ci := root.member(e.container)
	if ci < 0 {
		h.CreatedContainer = true
		out, h.EmptyInner = insertMember(src, root, e.container, jsonObject{{e.key, e.value}}, l)
		return out, h, true, nil
	}
	c := root.members[ci].value
	if c.kind != '{' {
		return nil, h, false, fmt.Errorf("%q is not an object", e.container)
	}
	mi := c.member(e.key)
	if mi < 0 {
		out, h.EmptyInner = insertMember(src, c, e.key, e.value, l)
		return out, h, true, nil
	}
	m := c.members[mi]
	if reflect.DeepEqual(m.value.decode(src), plain(e.value)) {
		return src, h, false, nil
	}
	h.Previous = string(src[m.value.start:m.value.end])
	ind, own := lineIndent(src, m.keyStart)
	return splice(src, m.value.start, m.value.end, render(e.value, ind, l, !own)), h, true, nil
}

// uninstallJSON takes e out of src. removed is false when it is not there;
// empty is true when the root object is left with no members.
func uninstallJSON(src []byte, e jsonEntry, h jsonHints) (out []byte, removed, empty bool, err error) {
	src, root, err := rootObject(src)
	if err != nil {
		return nil, false, false, err
	}
	ci := root.member(e.container)
	if ci < 0 || root.members[ci].value.kind != '{' {
		return src, false, len(root.members) == 0, nil
	}
	c := root.members[ci].value
	mi := c.member(e.key)
	if mi < 0 {
		return src, false, false, nil
	}
	switch {
	case h.Previous != "":
		m := c.members[mi]
		out = splice(src, m.value.start, m.value.end, h.Previous)
	case h.CreatedContainer && len(c.members) == 1:
		out = removeMember(src, root, ci, h.EmptyInner)
		empty = len(root.members) == 1
	default:
		out = removeMember(src, c, mi, h.EmptyInner)
	}
	return out, true, empty, nil
}
