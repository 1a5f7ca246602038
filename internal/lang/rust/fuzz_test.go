package rust_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/rust"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, rust.Language, ".rs",
		"mod a { pub mod b { use super::*; impl<T: X> Y<T> for Z where T: W { fn f(&self) { Self::g(); } } } }\n",
		"fn f() { let Some(x) = y else { return }; match z { A::B(c) | A::C(c) => c.d(), _ => {} }; r#\"s\"#; 'a: loop {} }\n")
}
