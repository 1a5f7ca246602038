package cpp

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// ParseType reads a type as written down to the class the resolver
// follows: qualifiers, pointers and references are dropped; smart
// pointers and std::optional hold their argument; sequences (vector,
// list, set, array...) hold elements of theirs; other templates are
// their template (`Box<int>` is Box). Primitive types follow nothing.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	var elem uint8
	for depth := 0; depth < 8; depth++ {
		t = bareType(t)
		open := strings.IndexByte(t, '<')
		if open < 0 || !strings.HasSuffix(t, ">") {
			break
		}
		base, arg := t[:open], firstTemplateArg(t[open+1:len(t)-1])
		last := base[strings.LastIndex(base, "::")+1:]
		last = strings.TrimPrefix(last, ":")
		switch {
		case holders[last]:
			t = arg
		case sequences[last]:
			t, elem = arg, elem+1
		default:
			t = base
		}
	}
	t = strings.TrimPrefix(bareType(t), "::")
	if t == "" || primitives[t] || strings.ContainsAny(t, " ()[]<>,") {
		return lang.TypeExpr{}
	}
	return lang.TypeExpr{Path: strings.Split(t, "::"), Elem: elem}
}

// holders are the standard templates whose value is one of their
// argument's.
var holders = map[string]bool{
	"unique_ptr": true, "shared_ptr": true, "weak_ptr": true, "optional": true, "reference_wrapper": true,
	"atomic": true,
}

// sequences are the standard containers of their argument's values.
var sequences = map[string]bool{
	"vector": true, "list": true, "deque": true, "set": true, "multiset": true, "unordered_set": true,
	"unordered_multiset": true, "array": true, "span": true, "initializer_list": true, "forward_list": true,
}

// primitives are the builtin types.
var primitives = map[string]bool{
	"int": true, "void": true, "char": true, "bool": true, "auto": true, "double": true, "float": true,
	"long": true, "short": true, "unsigned": true, "signed": true, "size_t": true, "wchar_t": true,
	"char8_t": true, "char16_t": true, "char32_t": true, "decltype": true,
}

// bareType drops cv-qualifiers, elaborated-type keywords, pointer and
// reference marks from a written type.
func bareType(t string) string {
	t = strings.TrimSpace(t)
	for changed := true; changed; {
		changed = false
		for _, pre := range []string{"const ", "volatile ", "typename ", "struct ", "class ", "enum ", "union ", "mutable ", "constexpr ", "static "} {
			if strings.HasPrefix(t, pre) {
				t, changed = strings.TrimSpace(t[len(pre):]), true
			}
		}
		for _, suf := range []string{"*", "&", " const", "const", " volatile"} {
			if strings.HasSuffix(t, suf) && !(suf == "const" && !strings.HasSuffix(t, "*const") && !strings.HasSuffix(t, "&const")) {
				t, changed = strings.TrimSpace(t[:len(t)-len(suf)]), true
			}
		}
	}
	return t
}

// firstTemplateArg is the first top-level argument of a template
// argument list.
func firstTemplateArg(args string) string {
	depth := 0
	for i, r := range args {
		switch r {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				return strings.TrimSpace(args[:i])
			}
		}
	}
	return strings.TrimSpace(args)
}
