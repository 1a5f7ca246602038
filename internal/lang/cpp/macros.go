package cpp

import (
	"regexp"
)

// Export macros: libraries write `class YAML_CPP_API Emitter {` and
// `FOO_API int run();`, a macro the preprocessor turns into a visibility
// attribute or nothing. The grammar cannot know: it reads the class as
// one named YAML_CPP_API and the rest as a function. Before parsing,
// such a macro is overwritten with spaces, so that byte offsets and
// lines stay those of the file and the text of every node is still read
// from the file as written.
//
//   - After `class`, `struct` or `union`: an upper-case name (two letters
//     at least) followed by the class's name and `{`, `:`, `;` or `final`.
//   - At the start of a declaration: an upper-case name ending in API,
//     EXPORT, DLL or LINKAGE, followed by another name.
var (
	classKeyMacro = regexp.MustCompile(`\b(?:class|struct|union)\s+([A-Z][A-Z0-9_]*[A-Z0-9])\s+[A-Za-z_][A-Za-z0-9_]*\s*(?:final\b|[:{;])`)
	leadingMacro  = regexp.MustCompile(`(?m)^[ \t]*([A-Z][A-Z0-9_]*(?:API|EXPORT|EXPORTS|DLL|LINKAGE))[ \t]+[A-Za-z_:]`)
)

// withoutExportMacros returns src with its export macros blanked, or src
// itself when it has none.
func withoutExportMacros(src []byte) []byte {
	var spans [][]int
	for _, re := range []*regexp.Regexp{classKeyMacro, leadingMacro} {
		for _, m := range re.FindAllSubmatchIndex(src, -1) {
			spans = append(spans, m[2:4])
		}
	}
	if len(spans) == 0 {
		return src
	}
	out := append([]byte(nil), src...)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			out[i] = ' '
		}
	}
	return out
}
