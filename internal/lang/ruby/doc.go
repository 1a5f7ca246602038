// Package ruby is the Ruby language: extraction of modules, classes,
// methods, attributes and constants from Ruby source with tree-sitter,
// and the rules that resolve them the way Ruby loads and dispatches:
// require_relative against the requiring file, require against the load
// path (lib/ and the repository root), Zeitwerk autoload paths (a
// constant Foo::BarBaz lives in foo/bar_baz.rb under app/models,
// app/controllers or lib), and method lookup through the class, its
// included modules and its superclass chain.
//
// Modules are Interface nodes: they hold methods that classes mix in
// (`include M`, `prepend M` and `extend M` are IMPLEMENTS edges) and nest
// constants.
// Dynamic dispatch (`send`, `public_send`, `method_missing`,
// `define_method`) gives no edges: the called name is data.
package ruby
