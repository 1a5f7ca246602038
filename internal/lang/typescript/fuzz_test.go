package typescript_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/typescript"
)

func FuzzExtractTypeScript(f *testing.F) {
	langtest.FuzzExtract(f, typescript.TypeScript, ".ts",
		"class A { constructor(private b: B) { this.c = new C(); } get d() { return this.b } }",
		"export default class { m() { super.m() } }\nexport * as ns from './x'")
}

func FuzzExtractJavaScript(f *testing.F) {
	langtest.FuzzExtract(f, typescript.JavaScript, ".js",
		"const { a, b: c } = require('./x')\nmodule.exports = { a, d() { return c() } }",
		"exports.f = function () { this.g() }\nclass K extends require('y').Z {}")
}
