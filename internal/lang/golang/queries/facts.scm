; Uses inside a Go file: calls, local bindings and identifier references.

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

(var_spec) @var

(range_clause
  left: (expression_list) @left
  right: (_) @right) @range

(type_switch_statement) @typeswitch

(func_literal parameters: (parameter_list) @params) @funclit

(identifier) @ident

(selector_expression
  operand: (identifier) @qualifier
  field: (field_identifier) @field) @selector
