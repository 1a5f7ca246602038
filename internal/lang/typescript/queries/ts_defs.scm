; Declarations of a TypeScript or TSX file. extract.go sorts the matches by
; position and reads names, parameters, types and bases off the captured
; nodes; which of them become symbols (and under which parent) depends on
; where they sit, which the Go code decides.

(function_declaration) @function
(generator_function_declaration) @function
(function_signature) @signature

(class_declaration) @class
(abstract_class_declaration) @class
(class) @class

(interface_declaration) @interface
(type_alias_declaration) @alias
(enum_declaration) @enum

(method_definition) @method
(method_signature) @method.signature
(abstract_method_signature) @method.signature
(public_field_definition) @field
(property_signature) @field

(variable_declarator) @variable

; Constructor parameters with an accessibility or readonly modifier declare
; properties: which parameters have one, shapes.go tells.
(required_parameter) @param.property
(optional_parameter) @param.property
