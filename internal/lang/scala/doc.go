// Package scala is the Scala language: extraction of packages, classes,
// case classes, traits, objects, companion objects, enums, defs, extension
// methods, implicit classes, constructors, vals and vars, type aliases,
// imports, calls and local bindings from Scala 2 and Scala 3 source
// (.scala, .sc; braces and the indentation-based syntax) with tree-sitter,
// and the rules that resolve them the way Scala does.
//
// Naming conventions of the graph for Scala:
//   - A package is a Package node keyed by its dotted name, as for Java
//     and Kotlin. Chained clauses (`package a.b` then `package c`) make
//     the package a.b.c and the names of a.b visible; a file whose only
//     top-level declaration is a package block (`package c { ... }`) or a
//     package object (`package object c { ... }`) declares into the
//     package a.b.c, the members of the package object being top-level
//     names. Declarations in other package blocks are read as members of
//     the file's package. Files without a package clause share one module
//     per directory.
//   - Classes (case, abstract, sealed, final, plain) are Classes, traits
//     Interfaces, Scala 3 enums Enums with their cases as static Consts.
//     An `object` is a Class whose members are static. An object named
//     like a class, trait or enum declared beside it (before or after it)
//     is that type's companion: its members are static members of the
//     type (Qual "C.apply") and the companion itself is no node.
//   - Every class has a Constructor named after it, from its first
//     parameter list (`class A` has one without parameters); each
//     auxiliary constructor `def this(...)` is another. The parameters of
//     a case class and the `val`/`var` parameters of any class are
//     Properties. Members `val`/`var` are Properties; at top level (Scala 3)
//     Variables. A def without a parameter list is read like a property
//     (Symbol.Getter): `a.size.run()` follows the result of size.
//   - A def is a Method in a type and a Function at top level. Parameters
//     are those of the first list that is not `implicit`/`using`.
//   - A Scala 3 extension method `extension (x: T) def f` is a Function
//     (a static Method inside an object) with Receiver T and, at top level,
//     Qual "T.f"; when T is a type of the repository that declares no
//     member f, f is also a member of T, so `t.f` on a T finds it. The
//     methods of a Scala 2 `implicit class R(x: T)` are found on a T the
//     same way. Whether the calling file imports them is not checked.
//   - `new T(args) { ... }` declares an anonymous Class named after the
//     enclosing type and a number (Name "Main$1", Qual "Main.$1"), which
//     extends T; its defs are its methods.
//   - Calls and local bindings belong to the innermost def, constructor
//     or type around them: the code of a class body outside its defs
//     belongs to the class, also when the class is local to a def.
//   - A named given (`given ord: Ordering[Int] = ...`) is a Property (a
//     Variable at top level) of its declared type; anonymous givens and the
//     methods of a given's `with` body are no nodes.
//   - Exported means neither private nor protected (with or without a
//     qualifier such as `private[pkg]`).
//
// Calls: `f(...)` and `f` (members of the enclosing classes and their
// supertypes, the file, imports, the package, enclosing packages of
// chained clauses, wildcard imports), `new C(...)`, `C(...)` (the apply of
// C's companion when it defines one that fits, else C's constructor; an
// object's apply when it defines one), `O.f()` on objects and companions,
// `this.f()`, `super.f()` (the nearest base in the linearization that
// declares f, traits included), `x.f(...)` and `x.f` where x is typed by
// a parameter, a declared or inferred local `val`/`var`, a field, a def's
// declared or inferred result type, a pattern type (`case c: C`), a
// for-comprehension over a collection or Option of one type, `f(x)` on a
// value of a class (its apply), and infix calls `a f b` (the grammar
// reads them as infix expressions; an operator ending in ':' is a method
// of its right operand). A name written without arguments is a call only
// when it names a def (Call.Bare): `x.size` calls `def size`, reads
// `val size`. Members are looked up along a linearization: the type, then
// its bases from the last written (the rightmost trait) to the first (the
// superclass), each with its own supertypes. A call through a trait or an
// overridden method gets dispatch edges to the overrides in subtypes.
// `this(x)` outside an auxiliary constructor runs the class's apply; a
// Char or String literal receiver of an operator it lacks is converted by
// the one implicit def in scope that takes it; the parameter of a lambda
// (or `_`) passed to a collection's map, filter, foreach... is an element,
// that of a lambda passed to a def called by name has the type the def's
// function parameter declares; a self alias (`self =>`) is the outer
// instance. An untyped receiver (the result of an unknown call, a lambda
// passed to an unknown function) gets no edge, and no call is linked by
// name only.
package scala
