; Declarations of a Go file, in document order. extract.go reads the details
; (fields, methods, parameters, results) off the captured declaration nodes.

(package_clause (package_identifier) @package)

(import_spec
  name: (_)? @import.alias
  path: (_) @import.path) @import

(function_declaration name: (identifier) @name) @function

(method_declaration name: (field_identifier) @name) @method

(type_spec name: (type_identifier) @name) @type

(type_alias name: (type_identifier) @name) @alias

; Package-level constants and variables only; local ones are bindings.
(source_file (const_declaration (const_spec) @const))
(source_file (var_declaration (var_spec) @var))
(source_file (var_declaration (var_spec_list (var_spec) @var)))
