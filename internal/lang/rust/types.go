package rust

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Containers of one element type whose methods are not the element's,
// and transparent wrappers whose methods are (by auto-deref).
var (
	transparent = map[string]bool{"Box": true, "Rc": true, "Arc": true, "Cow": true, "Pin": true,
		"ManuallyDrop": true, "Ref": true, "RefMut": true, "MutexGuard": true, "RwLockReadGuard": true,
		"RwLockWriteGuard": true}
	elementOf = map[string]int{"Option": 0, "Result": 0, "Vec": 0, "VecDeque": 0, "LinkedList": 0,
		"HashSet": 0, "BTreeSet": 0, "BinaryHeap": 0, "Mutex": 0, "RwLock": 0, "RefCell": 0, "Cell": 0,
		"OnceCell": 0, "OnceLock": 0, "Weak": 0, "HashMap": 1, "BTreeMap": 1, "IndexMap": 1}
)

// ParseType reduces a Rust type to its named part: "&mut a::Point<T>" →
// [a Point]; "Box<dyn Shape + Send>" → [Shape]; "Vec<Foo>", "Option<Foo>",
// "[Foo]" → [Foo] as a container; tuples, function pointers and qualified
// paths → nothing.
func (rules) ParseType(text string) lang.TypeExpr { return parseType(text) }

func parseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	var elem uint8
	for range 16 {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
			return lang.TypeExpr{}
		case strings.HasPrefix(t, "&"):
			t = strings.TrimSpace(t[1:])
			if strings.HasPrefix(t, "'") {
				i := strings.IndexAny(t, " \t")
				if i < 0 {
					return lang.TypeExpr{}
				}
				t = t[i:]
			}
		case strings.HasPrefix(t, "mut "):
			t = t[4:]
		case strings.HasPrefix(t, "*const "), strings.HasPrefix(t, "*mut "):
			t = t[strings.IndexByte(t, ' ')+1:]
		case strings.HasPrefix(t, "dyn "), strings.HasPrefix(t, "impl "):
			t = firstBound(t[strings.IndexByte(t, ' ')+1:])
		case strings.HasPrefix(t, "("):
			if !strings.HasSuffix(t, ")") || len(splitTop(t[1:len(t)-1], ',')) != 1 {
				return lang.TypeExpr{} // a tuple or the unit type
			}
			t = t[1 : len(t)-1]
		case strings.HasPrefix(t, "["):
			if !strings.HasSuffix(t, "]") {
				return lang.TypeExpr{}
			}
			t, elem = splitTop(t[1:len(t)-1], ';')[0], elem+1
		case strings.HasPrefix(t, "<"), strings.HasPrefix(t, "fn"), strings.HasPrefix(t, "unsafe "),
			strings.HasPrefix(t, "extern "), strings.HasPrefix(t, "!"), strings.HasPrefix(t, "_"):
			if strings.HasPrefix(t, "fn") && len(t) > 2 && isIdentPart(t[2]) {
				return pathType(t, elem) // a type named fn...
			}
			return lang.TypeExpr{}
		default:
			if strings.Contains(t, "+") {
				t = firstBound(t)
				continue
			}
			base, args := genericArgs(t)
			name := base
			if i := strings.LastIndex(base, "::"); i >= 0 {
				name = base[i+2:]
			}
			if std := strings.HasPrefix(base, "std::") || !strings.Contains(base, "::"); std && len(args) > 0 {
				if transparent[name] {
					t = args[0]
					continue
				}
				if i, ok := elementOf[name]; ok && i < len(args) {
					t, elem = args[i], elem+1
					continue
				}
			}
			return pathType(t, elem)
		}
	}
	return lang.TypeExpr{}
}

// pathType splits a path type into its segments without generic
// arguments.
func pathType(t string, elem uint8) lang.TypeExpr {
	var segs []string
	for _, seg := range splitPath(t) {
		if i := strings.IndexByte(seg, '<'); i >= 0 {
			seg = seg[:i]
		}
		seg = strings.TrimSpace(seg)
		if seg == "" || !isIdent(seg) {
			return lang.TypeExpr{}
		}
		segs = append(segs, seg)
	}
	if len(segs) == 0 {
		return lang.TypeExpr{}
	}
	return lang.TypeExpr{Path: segs, Elem: elem}
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdentPart(s[i]) && s[i] < 0x80 {
			return false
		}
	}
	return s != "" && !(s[0] >= '0' && s[0] <= '9')
}

// splitPath splits at the "::" outside angle brackets.
func splitPath(t string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ':':
			if depth == 0 && i+1 < len(t) && t[i+1] == ':' {
				out = append(out, t[start:i])
				start = i + 2
				i++
			}
		}
	}
	return append(out, t[start:])
}

// genericArgs splits "a::B<X, Y>" into "a::B" and its type arguments,
// lifetimes left out.
func genericArgs(t string) (string, []string) {
	i := strings.IndexByte(t, '<')
	if i < 0 || !strings.HasSuffix(t, ">") {
		return t, nil
	}
	var args []string
	for _, a := range splitTop(t[i+1:len(t)-1], ',') {
		a = strings.TrimSpace(a)
		if a == "" || strings.HasPrefix(a, "'") || strings.Contains(a, "=") {
			continue
		}
		args = append(args, a)
	}
	return t[:i], args
}

// splitTop splits at sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<' || c == '(' || c == '[':
			depth++
		case c == '>' && (i == 0 || s[i-1] != '-') || c == ')' || c == ']':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// firstBound is the first bound of "A + Send + 'a" that names a trait.
func firstBound(t string) string {
	for _, b := range splitTop(t, '+') {
		b = strings.TrimSpace(b)
		if b != "" && !strings.HasPrefix(b, "'") && !strings.HasPrefix(b, "?") {
			return b
		}
	}
	return ""
}
