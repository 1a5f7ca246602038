; Declarations of a Java file. extract.go sorts the matches by position
; (outer declarations first) and reads the details off the captured nodes.

(package_declaration [(identifier) (scoped_identifier)] @package)

(import_declaration) @import

(class_declaration) @class
(interface_declaration) @interface
(enum_declaration) @enum
(record_declaration) @record
(annotation_type_declaration) @annotation

(method_declaration) @method
(constructor_declaration) @constructor
(compact_constructor_declaration) @compact
(annotation_type_element_declaration) @element

(field_declaration) @field
(constant_declaration) @field
(enum_constant) @enumconst

; Anonymous classes: `new T(...) { ... }` and enum constants with a body.
(object_creation_expression (class_body) @anon.body) @anon
(enum_constant body: (class_body) @anon.body) @anon
