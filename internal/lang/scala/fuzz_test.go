package scala_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/scala"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, scala.Language, ".scala",
		"package a.b\npackage c\nimport d.{E, F => G, H as I}\nimport j._\n/** K. */\nsealed abstract class K[T](val x: G, y: Int)(implicit z: Z) extends D(1) with I {\n  def this() = this(null, 1)\n  def f: Int = x.g(y)\n}\nobject K {\n  def apply(s: String): K[Int] = new K(s, 2)\n}\n",
		"enum Color:\n  case Red, Green\n  def hex = \"#\"\nextension (s: Shape)\n  def area: Int = s.w * 2\ngiven ord: Ordering[Int] = Ordering.Int\nimplicit class R(x: Int) { def twice = x * 2 }\ndef top(xs: List[Int]) =\n  val Some(a) = xs.headOption\n  xs.map(v => v.foo()).foreach { case (p, q) => p.bar(q) }\n  for (i <- xs; j = i + 1) yield i max j\n  super.top(1)\n",
		"package object p {\n  type T = Map[Int, String]\n  val v = new { def w = 1 }\n}\n")
}
