// Package rust is the Rust language: extraction of items, use declarations,
// calls and local bindings from Rust source with tree-sitter, and the rules
// that resolve them the way rustc does: crates from Cargo.toml (libraries,
// binaries, workspaces), the module tree from `mod` declarations, `use`
// paths (crate::, self::, super::, groups, aliases, globs, re-exports),
// methods attached to their type by `impl` blocks anywhere in the crate,
// and trait implementations for dispatch.
package rust
