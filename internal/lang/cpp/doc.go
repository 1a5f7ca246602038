// Package cpp is the C++ language: extraction of namespaces, classes,
// members, free functions, templates, includes and calls from C++ source
// with tree-sitter, and the rules that resolve them. C and C++ files are
// resolved as one program (package c, JoinFamily): C++ calls C functions
// through headers, and a `.h` file goes to C++ when its content is C++
// (ClaimsContent), else stays C.
//
// Naming conventions of the graph for C++:
//   - A namespace is a Package node keyed by its C++ name ("a::b"), with
//     CONTAINS edges to the files that declare it; `namespace a::b {}` and
//     nested blocks name the same namespace. The members of an anonymous
//     namespace belong to the enclosing one but are file-local: Static and
//     not exported, like `static` functions at file level.
//   - Qualified names carry the namespace, joined with '.': "a.b.A.run".
//   - Classes are Class nodes, structs and unions Struct; a class whose
//     methods are all pure virtual (`= 0`, the destructor aside) and that
//     has no data members is an Interface, and its subclasses IMPLEMENT it
//     (other bases are EXTENDS). Enums and `enum class` are Enum nodes with
//     their enumerators as Const members.
//   - Member functions are Methods ("A.run"); a constructor is a
//     Constructor named after its class ("A.A"); a destructor is a Method
//     named "~A" ("A.~A"); an operator is a Method or Function named as
//     written without spaces ("operator+=", "operator()"). Data members
//     are Properties; `static` members are Static.
//   - A member function has one node: its definition. A definition out of
//     the class (`void A::run() {...}`, `a::b::A::run`) is the Method node,
//     attached to A by HAS_METHOD; the declaration in the class body is
//     hidden (it only gives the resolver the parameters and `virtual`). A
//     member declared and defined nowhere in the repository has no node,
//     as a C function only declared; a pure virtual one is an abstract
//     Method node. Free function prototypes are hidden likewise. A free
//     function defined with its namespace written before it (`void
//     ns::f() {}`) cannot be told from a member by its text: it is a
//     Method node, found in namespace ns by lookups.
//   - A class or function template is its plain symbol (Box, Box.get);
//     an explicit specialisation (`template<> struct Box<int>`) is a
//     Class or Struct named Box with Qual "Box<int>", its members under
//     it; name lookups find the primary template only.
//   - `typedef` and `using X = ...` are TypeAliases; variables and
//     constants at namespace scope are Variable and Const (`const` and
//     `constexpr`) nodes.
//   - Exported means: not in an anonymous namespace and not `static` at
//     namespace scope. Access specifiers (public, private, protected) do
//     not change Exported: a private member is still linked by calls
//     from its class.
//   - Function-like macros are hidden symbols; their invocations, and
//     those of upper-case names, are counted as macros, never calls
//     (calls written in their arguments count).
//
// Includes are resolved as C does them (package c: the including file's
// directory, then the `-I` directories of compile_commands.json, else the
// usual layouts) and give IMPORTS edges file → header. `using namespace
// x;` and `using x::y;` are imports of the file, whatever their position.
//
// Calls: a bare `f()` is looked up in the enclosing classes and their
// bases, then in the enclosing namespaces from the innermost out (for an
// out-of-line member, the class's namespace first), each with the
// namespaces its `using namespace` directives name, then the names `using
// x::y` binds; among definitions of one name in several files, those the
// calling file sees through its includes (or whose prototype it sees) win,
// else nothing. `obj.f()`, `p->f()`, `this->f()`, `A::f()`, `Base::f()`
// and `ns::f()` go through the receiver's type: locals typed by their
// declaration (`A a;`, `A* p`, `auto x = A(...)`, `auto p = new A`,
// `auto p = std::make_unique<A>()`), parameters, fields, return types,
// casts, smart pointers (unique_ptr, shared_ptr, weak_ptr of A are A) and
// containers (vector, list... of A hold A's). `new A(...)`, `A a(...)`,
// `A{...}`, `A(...)` and `std::make_unique<A>(...)` call the constructor
// that fits the arguments, or the class itself when it declares none;
// copy and move constructors are never targets (the compiler runs them
// unwritten far more often than a call names them). `A a(b);`, which the
// grammar reads as a function prototype, is a construction when its
// "parameters" are bare names. A constructor's `Base(x)` initializer
// calls the base's constructor; `A() : A(0)` delegates.
// Overloads are chosen by argument count (default arguments are read off
// the declaration in the class), then by the types of literal and typed
// arguments (an enumerator of an unscoped enum is a value of the enum; a
// parameter typed by an alias is the aliased class), and a function that
// takes exactly the known argument types wins over a template; when
// several still fit, the call gets no edge. A
// call through a pointer or reference to a class whose method is virtual
// gets dispatch edges to the overrides in subclasses; a call on an object
// declared by value does not dispatch. Calls on a value whose type is a
// template parameter, on an `auto` from an unknown call, or into the
// standard library get no edge. Functions reference the variables and
// constants of namespaces and the static members they use (refs.go).
package cpp
