; Uses inside a Python file: calls and local bindings. Each match is
; attributed to the innermost function or class whose body contains it
; (extract.go). References to module variables are read by refs.go with a
; tokenizer: a match per identifier cost too much.

(call
  function: (_) @callee
  arguments: (_) @args) @call

(assignment left: (_) @left) @assign

(for_statement
  left: (_) @left
  right: (_) @right
  body: (_) @body) @for

; One pattern per kind: `([(a) (b)] (for_in_clause))` would be an a or b
; followed by a sibling clause, which never occurs.
(list_comprehension
  (for_in_clause
    left: (_) @left
    right: (_) @right)) @comprehension

(set_comprehension
  (for_in_clause
    left: (_) @left
    right: (_) @right)) @comprehension

(dictionary_comprehension
  (for_in_clause
    left: (_) @left
    right: (_) @right)) @comprehension

(generator_expression
  (for_in_clause
    left: (_) @left
    right: (_) @right)) @comprehension

(with_item
  value: (as_pattern
    . (_) @value
    alias: (as_pattern_target (_) @left))) @with

(named_expression
  name: (identifier) @left
  value: (_) @value) @walrus

(except_clause
  (as_pattern
    . (_) @value
    alias: (as_pattern_target (identifier) @left))) @except

(lambda parameters: (lambda_parameters) @params) @lambda

; `if isinstance(x, Foo):` narrows x to Foo inside the block.
(if_statement
  condition: (call
    function: (identifier) @narrow.fn
    arguments: (argument_list . (identifier) @left . (_) @value .))
  consequence: (block) @body
  (#eq? @narrow.fn "isinstance")) @narrow
