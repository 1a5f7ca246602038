; Declarations of a JavaScript or JSX file (see ts_defs.scm).

(function_declaration) @function
(generator_function_declaration) @function

(class_declaration) @class
(class) @class

(method_definition) @method
(field_definition) @field

(variable_declarator) @variable
