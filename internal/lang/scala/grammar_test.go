package scala

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/grammartest"
)

// TestGrammarShapes pins the syntax trees of the Scala constructs the
// extractor reads, so that a grammar upgrade that renames a node kind or
// moves a child fails here first. Worth knowing: `this` and `super` are
// plain identifiers; a def's type parameters are under the same field
// (`parameters`) as its parameter lists; an abstract val names its
// identifier `name`, a defined one `pattern`; `a f b` is an
// infix_expression whose operator is an identifier; a call without
// parentheses (`y.z`) is a bare field_expression.
func TestGrammarShapes(t *testing.T) {
	grammartest.CheckShapes(t, grammar(), [][3]string{
		{"chained packages and imports",
			"package a.b\npackage c\nimport a.c.D\nimport a.c._\nimport x.{Y => Z, W as V}\n",
			"(compilation_unit (package_clause name: (package_identifier (identifier) (identifier))) " +
				"(package_clause name: (package_identifier (identifier))) " +
				"(import_declaration path: (identifier) path: (identifier) path: (identifier)) " +
				"(import_declaration path: (identifier) path: (identifier) (namespace_wildcard)) " +
				"(import_declaration path: (identifier) (namespace_selectors (arrow_renamed_identifier name: (identifier) alias: (identifier)) " +
				"(as_renamed_identifier name: (identifier) alias: (identifier)))))"},
		{"case class with a superclass call and a trait",
			"case class P(x: Int) extends B(1) with I\n",
			"(compilation_unit (class_definition name: (identifier) class_parameters: (class_parameters (class_parameter name: (identifier) type: (type_identifier))) " +
				"extend: (extends_clause type: (type_identifier) arguments: (arguments (integer_literal)) type: (type_identifier))))"},
		{"object with apply",
			"object O {\n  def apply(s: String): Int = 1\n}\n",
			"(compilation_unit (object_definition name: (identifier) body: (template_body (function_definition name: (identifier) " +
				"parameters: (parameters (parameter name: (identifier) type: (type_identifier))) return_type: (type_identifier) body: (integer_literal)))))"},
		{"trait in indentation syntax, abstract and concrete defs",
			"trait T:\n  def f: Int\n  def g(): Int = f\n  val v: Int\n",
			"(compilation_unit (trait_definition name: (identifier) body: (template_body (function_declaration name: (identifier) return_type: (type_identifier)) " +
				"(function_definition name: (identifier) parameters: (parameters) return_type: (type_identifier) body: (identifier)) " +
				"(val_declaration name: (identifier) type: (type_identifier)))))"},
		{"enum",
			"enum E:\n  case A, B\n",
			"(compilation_unit (enum_definition name: (identifier) body: (enum_body (enum_case_definitions (simple_enum_case name: (identifier)) (simple_enum_case name: (identifier))))))"},
		{"extension method",
			"extension (s: S)\n  def f: Int = s.g\n",
			"(compilation_unit (extension_definition parameters: (parameters (parameter name: (identifier) type: (type_identifier))) " +
				"body: (function_definition name: (identifier) return_type: (type_identifier) body: (field_expression value: (identifier) field: (identifier)))))"},
		{"super call, infix call, call without parentheses",
			"def f(x: Int) =\n  super.g()\n  x h 1\n  y.z\n",
			"(compilation_unit (function_definition name: (identifier) parameters: (parameters (parameter name: (identifier) type: (type_identifier))) " +
				"body: (indented_block (call_expression function: (field_expression value: (identifier) field: (identifier)) arguments: (arguments)) " +
				"(infix_expression left: (identifier) operator: (identifier) right: (integer_literal)) (field_expression value: (identifier) field: (identifier)))))"},
		{"type parameters under the parameters field",
			"object A { def p[$: P] = 1 }\n",
			"(compilation_unit (object_definition name: (identifier) body: (template_body (function_definition name: (identifier) " +
				"parameters: (type_parameters name: (identifier) bound: (context_bound type: (type_identifier))) body: (integer_literal)))))"},
	})
}

// TestGrammarLimits records what the grammar fails to read, so that the
// extractor tolerates the ERROR nodes it gives and an upgrade that reads
// them is noticed: a lambda whose parameter is `implicit` in a block
// (`{ implicit ctx: P[_] => ... }`, common in fastparse; the defs after
// it in the file may then be read at top level) and a self-type named
// `this` (`class C { this: U => }`).
func TestGrammarLimits(t *testing.T) {
	grammartest.CheckStillFails(t, grammar(), []string{
		"val f = { implicit ctx: P[_] => 1 }\n",
		"class C { this: U => }\n",
	})
}
