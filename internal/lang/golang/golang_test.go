package golang_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/golang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.RunDir(t, "testdata") }

// FuzzParseTypeAndConstraint: written types and build constraints from any
// file must neither panic nor loop.
func FuzzParseTypeAndConstraint(f *testing.F) {
	f.Add("map[string][]*pkg.T[int]", "linux && (amd64 || !cgo)")
	f.Add("<-chan func() (a, b)", "!(")
	f.Fuzz(func(t *testing.T, typ, constraint string) {
		golang.Language.Rules().ParseType(typ)
		golang.EvalConstraint(constraint)
	})
}
