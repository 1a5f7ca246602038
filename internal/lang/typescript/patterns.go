package typescript

import "gitnexus.dev/gitnexus/internal/lang"

// The nodes the extractor reads, as patterns of one node each
// (lang.Kinds): the declarations, the module statements and the uses.
// shapes.go reads the children they need and puts the matches in the order
// of the patterns with children they stand for.

// jsDefs are the declarations of a JavaScript or JSX file (see tsDefs).
var jsDefs = []lang.KindPattern{
	{Kind: "function_declaration", Capture: "function"},
	{Kind: "generator_function_declaration", Capture: "function"},
	{Kind: "class_declaration", Capture: "class"},
	{Kind: "class", Capture: "class"},
	{Kind: "method_definition", Capture: "method"},
	{Kind: "field_definition", Capture: "field"},
	{Kind: "variable_declarator", Capture: "variable"},
}

// tsDefs are the declarations of a TypeScript or TSX file. extract.go
// sorts them by position and reads names, parameters, types and bases off
// the nodes; which of them become symbols (and under which parent) depends
// on where they sit, which the Go code decides.
var tsDefs = []lang.KindPattern{
	{Kind: "function_declaration", Capture: "function"},
	{Kind: "generator_function_declaration", Capture: "function"},
	{Kind: "function_signature", Capture: "signature"},
	{Kind: "class_declaration", Capture: "class"},
	{Kind: "abstract_class_declaration", Capture: "class"},
	{Kind: "class", Capture: "class"},
	{Kind: "interface_declaration", Capture: "interface"},
	{Kind: "type_alias_declaration", Capture: "alias"},
	{Kind: "enum_declaration", Capture: "enum"},
	{Kind: "method_definition", Capture: "method"},
	{Kind: "method_signature", Capture: "method.signature"},
	{Kind: "abstract_method_signature", Capture: "method.signature"},
	{Kind: "public_field_definition", Capture: "field"},
	{Kind: "property_signature", Capture: "field"},
	{Kind: "variable_declarator", Capture: "variable"},
	// Constructor parameters with an accessibility or readonly modifier
	// declare properties: which parameters have one, shapes.go tells.
	{Kind: "required_parameter", Capture: "param.property"},
	{Kind: "optional_parameter", Capture: "param.property"},
}

// modulePatterns are the imports and exports: ES module statements, and
// the calls and assignments among which shapes.go finds require('x'),
// import('x') and assignments to module.exports / exports.x.
var modulePatterns = []lang.KindPattern{
	{Kind: "import_statement", Capture: "import"},
	{Kind: "export_statement", Capture: "export"},
	{Kind: "call_expression", Capture: "call"},
	{Kind: "assignment_expression", Capture: "assign"},
}

// usePatterns are the uses inside a file: calls, constructions, local
// bindings and identifier references, each attributed by extract.go to the
// innermost enclosing node.
var usePatterns = []lang.KindPattern{
	{Kind: "call_expression", Capture: "call"},
	{Kind: "new_expression", Capture: "new"},
	{Kind: "variable_declarator", Capture: "declarator"},
	{Kind: "assignment_expression", Capture: "assign"},
	{Kind: "for_in_statement", Capture: "for"},
	{Kind: "catch_clause", Capture: "catch"},
	// Parameters: of callbacks and object methods (not nodes) every one;
	// of functions that are nodes, the destructured ones and those with
	// defaults.
	{Kind: "arrow_function", Capture: "lambda"},
	{Kind: "function_expression", Capture: "lambda"},
	{Kind: "generator_function", Capture: "lambda"},
	{Kind: "method_definition", Capture: "lambda"},
	{Kind: "function_declaration", Capture: "lambda"},
	{Kind: "generator_function_declaration", Capture: "lambda"},
	{Kind: "identifier", Capture: "ident"},
	{Kind: "shorthand_property_identifier", Capture: "ident"},
	{Kind: "member_expression", Capture: "member"},
}
