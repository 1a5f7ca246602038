package golang_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/golang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, golang.Language, ".go",
		"package p\nfunc (s *S[T]) M() { for _, t := range []struct{ x int }{{1}} { t.x.y() } }\n",
		"package p\ntype I interface { ~int | M() }\nfunc f[T I, U ~[]T](u U) { switch v := any(u).(type) { case *T: v() } }\n")
}
