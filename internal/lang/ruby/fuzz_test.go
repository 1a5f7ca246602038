package ruby_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/ruby"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, ruby.Language, ".rb",
		"module A; class B::C < D; include E; class << self; def f = g; end; private def h(*a, **k, &b); super; end; end; end\n",
		"require_relative 'x'\nX = Y::Z.new(1).w { |q| q.r }\ndef t(u = 1) = u.v&.w(send(:x))\nattr_accessor :a\n")
}
