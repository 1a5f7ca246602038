package agentsetup

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Surgical edits of a TOML configuration file (Codex's config.toml): setup
// owns one table, [<table>] with its sub-tables, and writes, replaces or
// removes exactly its lines. A new table goes at the end of the file, after
// a blank line, where a table is always valid.

// tomlTable is what setup puts in a TOML file.
type tomlTable struct {
	path []string // e.g. mcp_servers, gitnexus
	keys []jsonField
}

// tomlHints are what removal needs that the text cannot tell.
type tomlHints struct {
	// Prefix is what setup wrote before the table's header: a line break
	// when the file did not end with one, and a blank line.
	Prefix *string `json:"prefix,omitempty"`
	// Previous is the text of a table of the same name that setup replaced.
	Previous string `json:"previous,omitempty"`
}

// headerLine matches a table or array-of-tables header with an optional
// comment.
var headerLine = regexp.MustCompile(`^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$`)

// tomlKeyPath splits a dotted key into its parts, unquoting quoted parts.
func tomlKeyPath(s string) []string {
	var parts []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				c = s[i]
			}
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

func hasPrefixPath(p, prefix []string) bool {
	if len(p) < len(prefix) {
		return false
	}
	for i := range prefix {
		if p[i] != prefix[i] {
			return false
		}
	}
	return true
}

// tomlLine is one line of a file: [start, end) including its line break.
type tomlLine struct {
	start, end int
	text       string // without the line break
}

func splitLines(src []byte) []tomlLine {
	var lines []tomlLine
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start + 1
		}
		lines = append(lines, tomlLine{start, end, strings.TrimRight(string(src[start:end]), "\r\n")})
		start = end
	}
	return lines
}

// findTable returns the byte span of the table t.path and its sub-tables:
// from its header to the end of its last key line (comments and blank lines
// before the next header belong to what follows). ok is false when the file
// has no such table. It is an error when the file defines the table in a
// form setup does not edit (dotted keys or an inline table).
func findTable(src []byte, t tomlTable) (start, end int, ok bool, err error) {
	lines := splitLines(src)
	var current []string
	for _, ln := range lines {
		trimmed := strings.TrimSpace(ln.text)
		if m := headerLine.FindStringSubmatch(ln.text); m != nil {
			current = tomlKeyPath(m[1])
			if hasPrefixPath(current, t.path) {
				if !ok {
					start, ok = ln.start, true
				}
				end = ln.end
			}
			continue
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if ok && hasPrefixPath(current, t.path) {
			end = ln.end
			continue
		}
		eq := strings.IndexByte(trimmed, '=')
		if eq < 0 {
			continue
		}
		key := append(append([]string{}, current...), tomlKeyPath(trimmed[:eq])...)
		if hasPrefixPath(key, t.path) {
			return 0, 0, false, fmt.Errorf("it defines %s outside a [%s] table; edit that by hand or remove it, then run setup again",
				strings.Join(t.path, "."), strings.Join(t.path, "."))
		}
	}
	return start, end, ok, nil
}

// renderTable writes t with the file's line break.
func renderTable(t tomlTable, nl string) string {
	var b strings.Builder
	b.WriteString("[" + strings.Join(t.path, ".") + "]" + nl)
	for _, k := range t.keys {
		b.WriteString(k.key + " = " + render(k.value, "", jsonLayout{nl: nl}, true) + nl)
	}
	return b.String()
}

// installTOML puts t into src. changed is false when the same table text is
// already there.
func installTOML(src []byte, t tomlTable) (out []byte, h tomlHints, changed bool, err error) {
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	text := renderTable(t, nl)
	start, end, ok, err := findTable(src, t)
	if err != nil {
		return nil, h, false, err
	}
	if ok {
		old := string(src[start:end])
		if strings.TrimRight(old, "\r\n") == strings.TrimRight(text, "\r\n") {
			return src, h, false, nil
		}
		h.Previous = old
		if !strings.HasSuffix(old, "\n") {
			text = strings.TrimSuffix(text, nl)
		}
		return splice(src, start, end, text), h, true, nil
	}
	prefix := ""
	if len(src) > 0 {
		if !bytes.HasSuffix(src, []byte("\n")) {
			prefix = nl
		}
		prefix += nl
	}
	h.Prefix = &prefix
	return splice(src, len(src), len(src), prefix+text), h, true, nil
}

// uninstallTOML takes t out of src. removed is false when it is not there.
func uninstallTOML(src []byte, t tomlTable, h tomlHints) (out []byte, removed bool, err error) {
	start, end, ok, err := findTable(src, t)
	if err != nil || !ok {
		return src, false, err
	}
	if h.Previous != "" {
		return splice(src, start, end, h.Previous), true, nil
	}
	prefix := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		prefix = "\r\n"
	}
	if h.Prefix != nil {
		prefix = *h.Prefix
	}
	if start >= len(prefix) && string(src[start-len(prefix):start]) == prefix {
		start -= len(prefix)
	}
	return splice(src, start, end, ""), true, nil
}
