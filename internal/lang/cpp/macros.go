package cpp

import (
	"bytes"
	"regexp"
)

// Specifier macros: libraries write `class YAML_CPP_API Emitter {`,
// `FOO_API int run();`, `JKJ_CONSTEXPR20 To bit_cast(...)` or `~E()
// YAML_CPP_NOEXCEPT override;`, macros the preprocessor turns into a
// keyword, an attribute or nothing. The grammar cannot know: it reads the
// class as one named YAML_CPP_API and the rest as a function. Before
// parsing, such macros are overwritten with spaces, so that byte offsets
// and lines stay those of the file and the text of every node is still
// read from the file as written. A macro is blanked, outside preprocessor
// lines:
//
//   - between `class`, `struct` or `union` and the class's name: an
//     upper-case name (two letters at least) followed by the name and
//     `{`, `:`, `;` or `final`;
//   - anywhere, when its upper-case name ends the way such macros are
//     named (API, EXPORT, DLL, LINKAGE, NOEXCEPT, CONSTEXPR, INLINE...);
//   - anywhere, when the file defines it as nothing or as one specifier
//     keyword (`#define JKJ_CONSTEXPR20 constexpr`).
var (
	classKeyMacro   = regexp.MustCompile(`\b(?:class|struct|union)\s+([A-Z][A-Z0-9_]*[A-Z0-9])\s+[A-Za-z_][A-Za-z0-9_]*\s*(?:final\b|[:{;])`)
	namedSpecifier  = regexp.MustCompile(`\b[A-Z][A-Z0-9_]*(?:API|EXPORT|EXPORTS|DLL|LINKAGE|NOEXCEPT|CONSTEXPR|CONSTEXPR1[147]|CONSTEXPR20|FORCEINLINE|INLINE|NODISCARD)\b`)
	definedSpecifer = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:constexpr|inline|static|noexcept|__forceinline|__inline|__inline__|)[ \t]*$`)
	upperName       = regexp.MustCompile(`\b[A-Z_][A-Z0-9_]*[A-Z0-9]\b`)
)

// withoutSpecifierMacros returns src with its specifier macros blanked,
// or src itself when it has none.
func withoutSpecifierMacros(src []byte) []byte {
	var spans [][]int
	for _, m := range classKeyMacro.FindAllSubmatchIndex(src, -1) {
		spans = append(spans, m[2:4])
	}
	spans = append(spans, namedSpecifier.FindAllIndex(src, -1)...)
	if defs := definedSpecifer.FindAllSubmatch(src, -1); len(defs) > 0 {
		names := map[string]bool{}
		for _, d := range defs {
			names[string(d[1])] = true
		}
		for _, m := range upperName.FindAllIndex(src, -1) {
			if names[string(src[m[0]:m[1]])] {
				spans = append(spans, m)
			}
		}
	}
	var out []byte
	for _, sp := range spans {
		if onPreprocessorLine(src, sp[0]) {
			continue
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for i := sp[0]; i < sp[1]; i++ {
			out[i] = ' '
		}
	}
	if out == nil {
		return src
	}
	return out
}

// onPreprocessorLine reports whether offset i lies on a line that starts
// with `#`.
func onPreprocessorLine(src []byte, i int) bool {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	return len(bytes.TrimLeft(src[start:i], " \t")) > 0 && bytes.TrimLeft(src[start:i], " \t")[0] == '#'
}
