// Package typescript is TypeScript and JavaScript: extraction of symbols,
// imports, exports, calls, bindings and references from .ts/.tsx/.mts/.cts
// and .js/.jsx/.mjs/.cjs files with tree-sitter, and the rules that resolve
// them across files (ES modules and CommonJS, re-export chains, tsconfig
// baseUrl/paths, workspace packages, classes, interfaces and dispatch).
//
// The two languages are registered separately (nodes say "typescript" or
// "javascript") but share one Rules value, so a .js file importing a .ts
// file, or the reverse, resolves like any other import.
//
// Choices worth knowing:
//
//   - Every file is a module. Every directory holding TS/JS source files is
//     also a Package node (key: the directory, "." for the root) that
//     CONTAINS its files; IMPORTS edges go File → File.
//   - Callers follow the shared graph conventions: named functions, methods,
//     constructors, and function expressions or arrow functions assigned
//     directly to a variable declarator or a class field (those become
//     Function nodes named after the variable or field). Other callbacks,
//     object-literal methods and functions assigned to `exports.x` or
//     `module.exports` are not nodes; calls in them belong to the enclosing
//     node, or to the File at top level.
//   - TypeScript overloads: the signatures without a body are not nodes
//     when an implementation follows; only the implementation is.
//   - Declaration files (.d.ts) are indexed (their callables are Abstract:
//     no body), but module resolution tries every implementation extension
//     before .d.ts, so a declaration never takes the place of the .js or
//     .ts it describes; calls reach a .d.ts only when nothing else exists.
//   - JSX elements are not calls (a component is invoked by the framework);
//     calls written inside JSX expressions are.
//   - `export default class {}` and `module.exports = class {}` make a
//     Class named "default"; anonymous default-exported functions are not
//     nodes (they are function expressions).
//   - `this` is the enclosing class's instance in methods, constructors,
//     class fields and arrow functions inside them; in a function
//     expression or object-literal method it is unknown.
//   - TS namespaces are not nodes: their declarations are file-level
//     symbols qualified with the namespace ("NS.f").
//   - A call through a property of an object literal held by a variable
//     (`actions.add()`, `actions["update-high"]()`) calls the property's
//     value when it is a name or a member path from a name that means
//     the same at the call, and the variable is untyped and never
//     assigned (objectprops.go).
//   - A call the resolver cannot type is dropped, never guessed by name
//     (Features.NoNameOnly): untyped receivers in JS/TS are mostly library
//     values, and such guesses measured about 1 right in 10.
//
// Not followed: prototype assignments (`Foo.prototype.m = function`),
// JSDoc type annotations in .js files, types of callback parameters
// inferred from the called function's signature (except array methods and
// `then`), and decorators' effects.
package typescript
