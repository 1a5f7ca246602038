; Uses inside a Java file: calls, local bindings and name references.

(method_invocation) @call
(object_creation_expression) @new
(explicit_constructor_invocation) @ctorcall
(enum_constant) @enumconst

(local_variable_declaration) @local
(enhanced_for_statement) @foreach
(catch_formal_parameter) @catch
(resource) @resource
(lambda_expression) @lambda
(instanceof_expression) @instanceof
(type_pattern) @typepattern
(record_pattern_component) @typepattern

(identifier) @ident
(field_access) @fieldaccess
