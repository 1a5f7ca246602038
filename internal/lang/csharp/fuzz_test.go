package csharp_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/csharp"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, csharp.Language, ".cs",
		"using A.B;\nusing X = A.B.C;\nusing static A.M;\nnamespace N;\n/// <summary>Doc.</summary>\npublic partial class K<T> : B, I where T : new() { public int P { get; set; } = F(); K() : base() {} static void E(this K k) { k.G<int>(); new K(); base.H(); } }\n",
		"namespace A { interface I { void M() => N(); } enum E { X, Y } record R(int A); struct S { int f; } class C { dynamic d; void F() { var x = new C(); x.F(); d.Q(); ((C)d).F(); } } }\n")
}
