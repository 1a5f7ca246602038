package python_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/python"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, python.Language, ".py",
		"class A(:\n  def f(self, x=\n",
		"def f():\n\tglobal x\n\tx, *y = z = w()\n\treturn (lambda q: q.r())(1)\n")
}
