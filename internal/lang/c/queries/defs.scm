; Declarations of a C file, at any depth (inside preprocessor conditionals
; too), in document order. extract.go reads the details off the captured
; nodes and leaves out what lies inside a function body.

(function_definition) @function
(declaration) @declaration
(type_definition) @typedef
(struct_specifier body: (field_declaration_list)) @struct
(union_specifier body: (field_declaration_list)) @union
(enum_specifier body: (enumerator_list)) @enum
(preproc_def) @define
(preproc_function_def) @macrodef
(preproc_include) @include
