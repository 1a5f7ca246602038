// Package csharp is the C# language: extraction of namespaces, types,
// members, using directives and calls from C# source with tree-sitter, and
// the rules that resolve them.
//
// Naming conventions of the graph for C#:
//   - Namespaces (block and file-scoped) are Package nodes keyed by the
//     dotted name; files without a namespace form the global module,
//     without a node. A file belongs to the first namespace it declares.
//   - Classes, records and structs are Class nodes, interfaces Interface,
//     enums Enum with their members as Const. Nested types are qualified by
//     their enclosing types (Qual "Outer.Inner"). Type Quals do not carry
//     the namespace.
//   - Each part of a partial class is a Class node of its file (like
//     Ruby's reopened classes); lookups through any part find the members
//     of every part of the same namespace, and each member keeps its own
//     part as owner (HAS_METHOD).
//   - Constructors are named after their class (Qual "C.C"); methods are
//     "C.M", static ones marked Static; properties (auto-properties and
//     expression-bodied ones), fields, events and the positional
//     parameters of a record are Properties.
//   - Exported means public or internal (interface members are public by
//     default, other members private).
//   - The doc of a symbol is the text of the <summary> of the `///` XML
//     documentation above it.
//
// Imports: `using A.B;` makes the types of namespace A.B visible; `using X
// = A.B.C;` binds an alias; `using static A.B.C;` makes C's static methods
// callable by simple name; `global using` applies to every file. IMPORTS
// edges go from the file to the Package node of an imported namespace
// (as Java's on-demand imports) and to the file declaring the type of an
// alias or a static import. `.csproj` files are not read: namespaces are
// found by their declarations alone.
//
// Calls: `M()` through the enclosing types and their bases, `this.M()`,
// `base.M()`, `T.M()`, `x.M()` and `x?.M()` through typed locals (`C x =
// ...`, `var x = new C()`, `foreach`), parameters, casts, fields, properties
// and return types (List<T>, IEnumerable<T> and arrays are sequences of T);
// `new T(...)` calls T's constructor, or the class itself when it declares
// none (nor a base); `: base(...)` and `: this(...)` call the base class's
// and the class's own constructor. Interface, abstract and virtual methods
// get dispatch edges to the implementations and overrides in the repository.
// An extension method `static M(this T x)` is a member of T for lookups when
// T and its bases declare no M (the imports of the calling file are not
// checked). Reading a property is not a call; calls in property accessors
// and field initializers belong to the type. A receiver that cannot be typed
// (`dynamic`, `object`) gives no edge: calls are never linked by name only.
// Overloads are told apart by argument count only.
package csharp
