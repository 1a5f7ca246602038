; Items of a Rust file, at any depth, in document order. extract.go reads
; the details (fields, variants, parameters, the impl's type and trait) off
; the captured nodes and decides each item's parent from its position.

(function_item) @function
(function_signature_item) @signature
(struct_item) @struct
(union_item) @union
(enum_item) @enum
(type_item) @alias
(const_item) @const
(static_item) @static
(trait_item) @trait
(impl_item) @impl
(mod_item) @mod
(use_declaration) @use
(extern_crate_declaration) @extern
