// Package kotlin is the Kotlin language: extraction of packages, classes,
// interfaces, objects, companion objects, enums, functions, extension
// functions, constructors, properties and type aliases, imports, calls and
// local bindings from Kotlin source (.kt, .kts) with tree-sitter, and the
// rules that resolve them the way Kotlin does.
//
// Naming conventions of the graph for Kotlin:
//   - A package is a Package node keyed by its dotted name, as for Java;
//     files without a package header share one module per directory.
//   - Classes (data, sealed, abstract, open, plain) are Classes, interfaces
//     Interfaces, enum classes Enums with their entries as static Consts.
//     An `object` is a Class whose members are static. The members of a
//     companion object are static members of the enclosing class (Qual
//     "C.create"); the companion itself is no node.
//   - Functions and members are qualified by their type (Qual "C.run");
//     the primary constructor and each secondary constructor are
//     Constructors named after the class; `val`/`var` parameters of the
//     primary constructor are Properties.
//   - An extension function `fun T.f()` is a Function with Receiver T and
//     Qual "T.f"; when T is a class of the repository (named as the
//     extension's file sees it, nested types included) and declares no
//     member f, the function is also a member of T, so that `x.f()` on a
//     T finds it. Extensions of types outside the repository (`String.f`,
//     `KClass<*>.f`) are members of a hidden type standing for that type
//     name (external.go). Whether the calling file imports the extension
//     is not checked.
//   - Exported means neither private nor internal.
//
// Calls: `f()` (the receivers of enclosing `apply`/`run`/`with` lambdas,
// members of the enclosing classes and their supertypes, then the file,
// explicit imports, the package, star imports), `C()` (the constructor,
// else the class), `this(...)`/`super(...)` of secondary constructors,
// `C.f()` on objects and companions, `this.f()`, `super.f()`, `x.f()` and
// `x?.f()` where x is typed by a parameter, a declared or inferred local
// `val`/`var`, a property's declared type or initializer, a function's
// return type, a smart cast (`is` in `when`/`if`), a cast (`as`), a
// `let`/`also` or element-wise lambda's parameter. Overloads are chosen by
// argument types (overload.go); when several remain, none is linked. Calls
// in default values of primary-constructor parameters belong to the
// constructor. An untyped receiver gets no edge, and no call is linked by
// name only.
package kotlin
