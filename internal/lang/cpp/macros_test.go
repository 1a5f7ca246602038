package cpp

import "testing"

func TestWithoutSpecifierMacros(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"class YAML_CPP_API Emitter {", "class              Emitter {"},
		{"struct FOO_EXPORT S : B {", "struct            S : B {"},
		{"class Plain {", "class Plain {"},
		{"FOO_API int run();", "        int run();"},
		{"~E() YAML_CPP_NOEXCEPT override;", "~E()                   override;"},
		{"#define K_CONSTEXPR20 constexpr\nK_CONSTEXPR20 int f();", "#define K_CONSTEXPR20 constexpr\n              int f();"},
		{"#define FOO_API __attribute__((visibility(\"default\")))", "#define FOO_API __attribute__((visibility(\"default\")))"},
		{"int MAX = 3; int y = MAX;", "int MAX = 3; int y = MAX;"},
	} {
		if got := string(withoutSpecifierMacros([]byte(tc.src))); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}
