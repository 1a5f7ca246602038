; Uses inside a file: calls, constructions, local bindings and identifier
; references, each attributed by extract.go to the innermost enclosing node.
; Every pattern is one node, which keeps compiling the query cheap: the
; children each use needs (callee, name, left and right, qualifier and
; field) are read by shapes.go.

(call_expression) @call
(new_expression) @new

(variable_declarator) @declarator
(assignment_expression) @assign
(for_in_statement) @for
(catch_clause) @catch

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
(member_expression) @member
