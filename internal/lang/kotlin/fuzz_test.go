package kotlin_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/kotlin"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, kotlin.Language, ".kt",
		"package a.b\nimport c.D as E\nimport f.*\n/** K. */\nsealed class K<T>(val x: E) : D(), I {\n    companion object {\n        fun make() = K(E())\n    }\n}\n",
		"fun <T> List<T>.ext(a: Int = 1): Int {\n    val y: K? = null\n    y?.z()?.w()\n    super<I>.g()\n    listOf(1).map { it.q() }\n    fun local() {\n        class L\n    }\n    return 1\n}\nenum class E { A, B; fun g() {} }\ninterface I { fun n() }\n")
}
