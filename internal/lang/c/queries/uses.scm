; Uses inside a C file: calls (a call of a function-like macro parses as a
; call too; uses.go tells them apart) and the names read or written
; (refs.go keeps those that may be file-scope variables).

(call_expression
  function: (_) @callee
  arguments: (argument_list) @args) @call

(identifier) @ident
