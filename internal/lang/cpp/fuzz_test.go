package cpp_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/cpp"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, cpp.Language, ".cpp",
		"#include \"a.h\"\nnamespace a::b { namespace { int h(); }\ntemplate <typename T> class K : public B<T>, I {\npublic:\n  K(int x) : B<T>(x), v_(x) {}\n  virtual ~K();\n  virtual void f() const = 0;\n  K& operator+=(const K& o);\n  static int n;\n  T v_;\n};\n}\n",
		"void a::K::g() const { this->f(); B::f(); auto p = std::make_unique<K>(1); p->g(); for (auto& x : xs) x.f(); [&](int y) { k(y); }(2); }\ntypedef struct { int a; } T;\nusing U = std::vector<T>;\nenum class E { A, B };\nextern \"C\" { int c(int); }\n#define F(x) g(x)\nint z = F(1);\n")
}
