// Package java is the Java language: extraction of types, members, imports,
// calls, local bindings and references from Java source with tree-sitter,
// and the rules that resolve them (packages by their declaration,
// single-type, on-demand and static imports, member lookup through enclosing
// and inherited classes, overloads chosen by argument types).
//
// Naming conventions of the graph for Java:
//   - Nested and inner classes are qualified by their enclosing classes
//     (Qual "Outer.Inner"); local classes by the enclosing method
//     ("Outer.run.Local").
//   - Anonymous classes are Class nodes named the way javac names them,
//     numbered per enclosing class in order of appearance ("Outer$1",
//     "Outer$Inner$1", "Outer$1$1" for one inside another), with Qual the
//     enclosing class's Qual plus ".$N" ("Outer.$1", "Outer.Inner.$1").
//     Enum constants with a body are anonymous classes of the enum.
//   - Constructors are named after their class (Qual "Outer.Outer");
//     overloads get the parameter-type suffix the engine adds to ids.
//   - Exported means public or protected (members of interfaces and
//     annotation types are implicitly public).
//   - Fields are Properties; `static final` fields with UPPER_CASE names,
//     interface constants and enum constants are Consts. Record components
//     are Properties.
//   - Packages are Package nodes keyed by the dotted name; files without a
//     package declaration form one module per directory, without a node.
//     IMPORTS edges go from a file to the file declaring a type it imports
//     (single-type and static imports) and to the Package of an on-demand
//     package import.
//
// Calls:
//   - `m()`, `this.m()`, `super.m()` (no dispatch), `Type.m()`, `x.m()`
//     and chains; `new T(...)` calls the constructor chosen by arguments,
//     or the class itself when it declares none; `this(...)` and
//     `super(...)` call constructors; the `super()` that javac inserts in a
//     constructor (or in the default constructor, attributed to the class)
//     is a call too. An anonymous class creation calls the superclass
//     constructor (nothing for an interface); an enum constant calls the
//     enum's constructor.
//   - Overloads are chosen by argument types (overload.go); a call whose
//     arguments leave several overloads open, or whose choice an argument
//     of unknown type could change, links none of them.
//   - Method references (`Foo::bar`) and annotations are not calls; lambdas
//     are not nodes, so their calls belong to the enclosing method.
//   - REFERENCES link methods to the static fields and constants they read
//     or write, by simple name or through a type (`Color.RED`).
package java
