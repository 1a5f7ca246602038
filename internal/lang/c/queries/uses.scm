; Uses inside a C file: calls (a call of a function-like macro parses as a
; call too; uses.go tells them apart) and the declarations of locals.

(call_expression
  function: (_) @callee
  arguments: (argument_list) @args) @call

(parameter_declaration) @param
