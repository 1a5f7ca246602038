package cpp_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
	_ "gitnexus.dev/gitnexus/internal/lang/c"
	"gitnexus.dev/gitnexus/internal/lang/cpp"
)

// TestLanguageByContent requires a .h written in C++ to be C++, one
// written in C to stay C, and the C++ extensions to be C++ whatever
// they hold; C and C++ share one family of rules.
func TestLanguageByContent(t *testing.T) {
	for _, tc := range []struct {
		path, src, want string
	}{
		{"a.h", "namespace ui {\nclass W {};\n}\n", "cpp"},
		{"a.h", "template <typename T> T id(T t);\n", "cpp"},
		{"a.h", "int f(void) { return std::max(1, 2); }\n", "cpp"},
		{"a.h", "/* class of things, a::b */\nstruct s { int v; };\nint f(void);\n", "c"},
		{"a.H", "class W {\n};\n", "cpp"},
		{"a.hpp", "int f(void);\n", "cpp"},
		{"a.c", "namespace x {}\n", "c"},
		{"a.cc", "", "cpp"},
	} {
		l := lang.ForFile(tc.path, []byte(tc.src))
		if l == nil || l.Name() != tc.want {
			t.Errorf("%s %q: language %v, want %s", tc.path, tc.src, l, tc.want)
		}
	}
	if lang.ForPath("a.h").Rules() != cpp.Language.Rules() {
		t.Errorf("C and C++ files are not resolved by the same rules")
	}
}
