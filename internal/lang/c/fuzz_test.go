package c_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/c"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, c.Language, ".c",
		"#include \"a.h\"\n#define F(x) g(x)\nstatic int (*h(int a, ...))(char) { struct s { int (*f)(void); } v; return F(v.f()); }\n",
		"typedef struct { int a[3]; } T;\n#ifdef X\nenum e { A = 1, B };\n#else\nextern T t;\n#endif\nvoid k(void) { (*p)(); q[1](); }\n")
}
