; Uses inside a file: calls, constructions, local bindings and identifier
; references, each attributed by extract.go to the innermost enclosing node.

(call_expression function: (_) @callee) @call
(new_expression constructor: (_) @callee) @new

(variable_declarator name: (_) @name) @declarator
(assignment_expression left: (_) @left right: (_) @right) @assign
(for_in_statement left: (_) @left right: (_) @right) @for
(catch_clause parameter: (_) @name) @catch

; Parameters: of callbacks and object methods (not nodes) every one; of
; functions that are nodes, the destructured ones and those with defaults.
(arrow_function) @lambda
(function_expression) @lambda
(generator_function) @lambda
(method_definition) @lambda
(function_declaration) @lambda
(generator_function_declaration) @lambda

(identifier) @ident
(shorthand_property_identifier) @ident
(member_expression
  object: (identifier) @qualifier
  property: (property_identifier) @field) @member
