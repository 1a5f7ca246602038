; Uses inside a Rust file: calls, macro invocations and the patterns that
; bind local names.

(call_expression
  function: (_) @callee
  arguments: (arguments) @args) @call

(macro_invocation) @macro

(let_declaration) @let

(for_expression) @for

(let_condition) @letcond

(match_arm) @arm

(closure_expression
  parameters: (closure_parameters) @params) @closure
