// Package php is the PHP language: extraction of namespaces, classes,
// interfaces, traits, enums, functions, methods, properties and constants,
// `use` imports, require/include, calls and local bindings from PHP source
// with tree-sitter, and the rules that resolve them the way PHP does.
//
// Naming conventions of the graph for PHP:
//   - A namespace is a Package node keyed by its name with dots for
//     backslashes (`App\Models` is the package App.Models); a file takes the
//     namespace its first `namespace` statement declares. Files of the
//     global namespace share one module without a node.
//   - Classes are Classes, interfaces Interfaces, enums Enums with their
//     cases as Const members. Traits are Classes (they hold concrete
//     methods and properties and are never a type a value has); a class
//     that uses a trait gets an EXTENDS edge to it and the trait's methods
//     as its own, without dispatch from the trait to the class.
//   - Methods are qualified by their type (Qual "User.save"); `__construct`
//     is the Constructor. Properties are Properties, promoted constructor
//     parameters included; class constants and global `const` / `define()`
//     constants are Consts. Exported means public (the default).
//   - Names are resolved in the extractor, as PHP does at compile time:
//     a class name written in a file becomes its fully qualified name
//     through the file's namespace and `use` imports; a function name
//     imported with `use function` likewise. An unqualified function name
//     is looked up in the file's namespace first, then in the global one.
//   - IMPORTS edges go from a file to the file that declares a class or
//     function it imports with `use` (found by its declaration, else by
//     Composer's PSR-4 autoload map), and to the file a `require` or
//     `include` of a literal path names.
//
// Calls: `f()`, `new C()` (the constructor, else the class), `C::m()`,
// `self::m()` (the class where it is written, no dispatch), `static::m()`
// and `$this->m()` (the class, its traits, its parents, with dispatch to
// overrides of instance methods), `parent::m()`, `$x->m()` when `$x` is typed by a parameter type,
// an assignment `$x = new C()` or of a call with a declared return type, or
// a property's declared type; where the code declares none, the doc
// comment's `@param`, `@return` and `@var` naming one class (docblock.go);
// the variable of a `foreach` over a list of a class; `$x` in the body of
// `if ($x instanceof C)`.
// An untyped receiver gets no edge.
//
// REFERENCES link methods and functions to the class constants, enum
// cases and static properties they read or write (refs.go).
package php
