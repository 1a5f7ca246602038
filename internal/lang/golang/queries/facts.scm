; Uses inside a Go file: calls and local bindings. (Identifier references are
; read with go/scanner over function bodies: a query match per identifier
; costs more than the parse itself.)

(call_expression
  function: (_) @callee
  arguments: (argument_list) @args) @call

; `pkg.Make[int](x)` and `Make[T](x)` parse as conversions to a generic type;
; the resolver drops the ones whose target turns out to be a type.
(type_conversion_expression
  type: (generic_type) @callee
  operand: (_)) @conversion

(short_var_declaration
  left: (expression_list) @left
  right: (expression_list) @right) @short

; `case v := <-ch:` in a select binds v to an element of ch.
(receive_statement
  left: (expression_list) @left
  right: (_) @right) @short

(var_spec) @localvar

(range_clause
  left: (expression_list) @left
  right: (_) @right) @range

(type_switch_statement) @typeswitch

(func_literal parameters: (parameter_list) @params) @funclit

; Stores of callables for the value flow: `x.f = v`, and composite literals
; returned by constructors (`return &Config{Skip: skip}`).
(assignment_statement
  left: (expression_list) @left
  right: (expression_list) @right) @assign

(return_statement (expression_list) @results) @return
