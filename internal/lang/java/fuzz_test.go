package java_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/java"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, java.Language, ".java",
		"class A { void f() { new B() { void g() { this(1); } }; } }",
		"package p; import static q.R.*; enum E { X { void m() {} }; E() { super(); } }")
}
