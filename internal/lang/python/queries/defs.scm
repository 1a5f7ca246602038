; Declarations of a Python file. Which scope a node belongs to is decided in
; Go from the byte ranges of function and class bodies, so these patterns
; match at any depth: extract.go sorts the captured nodes into document
; order and reads the details (parameters, decorators, bases, docstrings).

(function_definition
  name: (identifier) @name
  body: (block) @body) @function

(class_definition
  name: (identifier) @name
  body: (block) @body) @class

; Module-level assignments are variables, class-level ones class
; attributes, `self.x = ...` in methods instance attributes.
(assignment) @assign

(import_statement) @import

(import_from_statement) @import.from

; A function whose body returns a value records the first typeable one;
; a generator's calls produce generators, so yields disqualify it.
(return_statement (_) @return.value) @return

(yield) @yield

(global_statement) @global

(nonlocal_statement) @global
