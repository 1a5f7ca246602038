package kotlin

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/grammartest"
)

// TestGrammarShapes pins the syntax trees of the Kotlin constructs the
// extractor reads, so that a grammar upgrade that renames a node kind or
// moves a child fails here first. Few children carry field names: a
// declaration's `name`, a type alias's `type`; an extension function's
// receiver is the type written before its name; `x?.f()` and `x.f()` are
// the same navigation_expression.
func TestGrammarShapes(t *testing.T) {
	grammartest.CheckShapes(t, grammar(), [][3]string{
		{"package and imports",
			"package a.b\nimport a.c.D\nimport a.c.*\nimport x.Y as Z\n",
			"(source_file (package_header (qualified_identifier (identifier) (identifier))) " +
				"(import (qualified_identifier (identifier) (identifier) (identifier))) " +
				"(import (qualified_identifier (identifier) (identifier))) " +
				"(import (qualified_identifier (identifier) (identifier)) (identifier)))"},
		{"data class with primary constructor and supertypes",
			"data class P(val x: Int) : Base(), I\n",
			"(source_file (class_declaration (modifiers (class_modifier)) name: (identifier) " +
				"(primary_constructor (class_parameters (class_parameter (identifier) (user_type (identifier))))) " +
				"(delegation_specifiers (delegation_specifier (constructor_invocation (user_type (identifier)) (value_arguments))) " +
				"(delegation_specifier (user_type (identifier))))))"},
		{"interface on several lines",
			"interface I {\n    fun n()\n}\n",
			"(source_file (class_declaration name: (identifier) (class_body (function_declaration name: (identifier) (function_value_parameters)))))"},
		{"object and companion object",
			"object O {\n    fun h() = 1\n}\nclass C {\n    companion object F {\n        fun c() = 2\n    }\n}\n",
			"(source_file (object_declaration name: (identifier) (class_body (function_declaration name: (identifier) (function_value_parameters) (function_body (number_literal))))) " +
				"(class_declaration name: (identifier) (class_body (companion_object name: (identifier) (class_body (function_declaration name: (identifier) (function_value_parameters) (function_body (number_literal))))))))"},
		{"extension function",
			"fun String.ext(): Int = 1\n",
			"(source_file (function_declaration (user_type (identifier)) name: (identifier) (function_value_parameters) (user_type (identifier)) (function_body (number_literal))))"},
		{"type alias",
			"typealias T = M\n",
			"(source_file (type_alias type: (identifier) (user_type (identifier))))"},
		{"safe call, qualified call, super call",
			"fun f() {\n    x?.g()\n    X.h()\n    super<I>.g()\n}\n",
			"(source_file (function_declaration name: (identifier) (function_value_parameters) (function_body (block " +
				"(call_expression (navigation_expression (identifier) (identifier)) (value_arguments)) " +
				"(call_expression (navigation_expression (identifier) (identifier)) (value_arguments)) " +
				"(call_expression (navigation_expression (super_expression (user_type (identifier))) (identifier)) (value_arguments))))))"},
	})
}

// TestGrammarLimits records what the grammar fails to read, so that the
// extractor tolerates the ERROR nodes it gives and an upgrade that reads
// them is noticed: a one-line class body whose function has no body (the
// same body on several lines parses), the primary constructor of a nested
// class on the line after the class name (taken for a secondary
// constructor of the outer class; at top level it parses), and a call to a function named like the soft
// keyword `open`.
func TestGrammarLimits(t *testing.T) {
	grammartest.CheckStillFails(t, grammar(), []string{
		"interface I { fun n() }\n",
		"class A {\n    class B\n    constructor(val x: Int) {\n    }\n}\n",
		"class C {\n    fun f() {\n        open()\n    }\n}\n",
	})
}
