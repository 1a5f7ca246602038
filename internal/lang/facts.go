package lang

import "gitnexus.dev/gitnexus/internal/graph"

// FileFacts is everything one source file says about itself, extracted from
// its syntax tree alone. It is plain data: deterministic for a given input,
// safe to cache by content hash, and free of tree-sitter objects. Cross-file
// meaning (what an import or a call refers to) is decided later by the
// resolver, which sees the facts of every file.
//
// Indexes into Symbols (Parent, Scope fields) are -1 for "file level".
type FileFacts struct {
	Path     string // repository-relative, '/'-separated
	Language string // language name as registered ("go", "python", ...)
	// Package is the package the file declares, when the language has such a
	// clause: the Go package name, the Java package's dotted name.
	Package string
	// Constraint is the file's build condition as written (Go `//go:build`
	// line), "" when unconditional.
	Constraint string
	Lines      int // number of lines in the file

	Symbols  []Symbol
	Imports  []Import
	Exports  []Export
	Calls    []Call
	Bindings []Binding
	Refs     []Ref

	// SyntaxErrors counts ERROR and MISSING nodes; a file with errors still
	// yields whatever parsed.
	SyntaxErrors int
	// Macros counts macro invocations (Rust `foo!(...)`): they expand to
	// code the index never sees, are not calls, and get no CALLS edge.
	Macros int

	// lazy holds Calls in their binary form until LoadCalls decodes them
	// (facts read back from the extraction cache); nil otherwise.
	lazy *lazyCalls
}

// Span locates a piece of source. Lines are 1-based and inclusive; bytes are
// a half-open range.
type Span struct {
	StartLine, EndLine int
	StartByte, EndByte uint32
}

// Contains reports whether byte offset b lies inside the span.
func (s Span) Contains(b uint32) bool { return b >= s.StartByte && b < s.EndByte }

// Symbol is a declaration: a function, method, type, field, constant or
// variable.
type Symbol struct {
	Kind graph.NodeKind
	Name string
	// Qual is the qualified name inside the file's namespace, joined with
	// '.': "Server.Handle", "Outer.Inner.run", "helper". Go methods use the
	// receiver type: "Server.Handle".
	Qual   string
	Parent int // index of the enclosing symbol, -1 at file level
	Span
	Signature string // the declaration header, one line, without the body
	Doc       string // first paragraph of the doc comment / docstring
	Exported  bool
	Static    bool // Java/TS static member, Python @staticmethod
	Abstract  bool // abstract method, interface method without a body
	// Hidden: a synthetic type the resolver needs but the graph does not
	// show (a Go anonymous struct type, for `for _, tt := range tests`).
	Hidden bool
	// Getter: an accessor read like a property (TS/JS `get x()`, Python
	// @property); `obj.x.y` follows what it returns.
	Getter  bool
	Content string

	// Type is the declared type of a Property, Variable or Const, or the
	// aliased type of a TypeAlias, as written (the resolver normalises it).
	Type string
	// Value is the initializer of a Property, Variable or Const when it can
	// type it (e.g. `x = Foo()`), nil otherwise.
	Value *Expr
	// Returns are the declared result types of a callable, as written.
	Returns []string
	Params  []Param
	// Receiver is the receiver's base type name of a Go method ("Server" for
	// `func (s *Server) Handle()`).
	Receiver string
	// Bases are the supertypes written on a type declaration.
	Bases []Base
	// Decorators are the names of decorators or annotations, without
	// arguments ("staticmethod", "app.route", "Override").
	Decorators []string
	// TypeParams are the type parameters a generic type or callable
	// declares, each with its constraint or first bound as Type ("" when
	// unbounded): Java `<T extends Node>` is {Name: "T", Type: "Node"}, Go
	// `[VC Creator[T]]` is {Name: "VC", Type: "Creator[T]"}. A Go method
	// lists the names its receiver gives its type's parameters, with Type
	// "": their constraints are the receiver type's, by position.
	TypeParams []Param
}

// Param is one parameter of a callable.
type Param struct {
	Name     string
	Type     string // as written; "" when not declared
	Variadic bool   // ...args, *args, **kwargs
	Optional bool   // has a default value, or is marked optional (TS `x?`)
	// Default is the default value when it may be a callable that flows
	// into the parameter (Features.ValueFlow): a name or a dotted name.
	Default *Expr
	// Supplied: a decorator of the callable lists the values the
	// parameter takes (Python's pytest.mark.parametrize), so no fixture
	// is injected for its name (ParamInjector).
	Supplied bool
}

// BaseKind says how a type names a supertype.
type BaseKind uint8

// Base kinds.
const (
	BaseExtends    BaseKind = iota // class extends, interface extends, Python bases
	BaseImplements                 // class implements
	BaseEmbedded                   // Go embedded field or embedded interface
)

// Base is one supertype written on a type declaration.
type Base struct {
	Type string // as written, e.g. "Base", "pkg.Base", "*Base", "List<T>"
	Kind BaseKind
}

// ExprKind is the shape of an expression the resolver can type.
type ExprKind uint8

// Expression kinds. Anything else is ExprUnknown.
const (
	ExprUnknown    ExprKind = iota
	ExprIdent               // Name
	ExprMember              // X.Name
	ExprCall                // X(...); Args holds the arguments when recorded
	ExprNew                 // new Name(...): Name is the type as written
	ExprSelf                // self, this
	ExprSuper               // super (Python super(), Java/TS super)
	ExprIndex               // X[...]: one element of X
	ExprTypeAssert          // X converted to the type Name (Go x.(T), TS `x as T`, Java cast)
	ExprComposite           // a value of type Name built in place (Go T{...}, &T{...})
	ExprLiteral             // a literal; Name is its type ("string", "int", "float", "bool", "null", "list", "dict")
	ExprAwait               // await X
	// ExprKeyword is an argument passed by name, Name=X (Python `f(app=x)`,
	// a Go composite literal's `Field: x`); Name "*" or "**" is an
	// unpacked sequence or mapping (X then its value).
	ExprKeyword
	// ExprEither is a value that is one of X and Args (Python `a or b`,
	// `a if c else b`). Typing leaves it unknown; value flow follows
	// every alternative.
	ExprEither
)

// Expr is a small expression tree: enough to follow receivers such as
// `self.repo.find(x).save()` or `pkg.New().Run()`.
type Expr struct {
	Kind ExprKind
	Name string
	X    *Expr
	Args []*Expr // for ExprCall and ExprNew, when the extractor records them
}

// Call is one call site.
type Call struct {
	Scope  int   // innermost enclosing callable symbol (else type symbol), -1 at file level
	Callee *Expr // ExprIdent, ExprMember, ExprNew, ExprSuper (super(...) constructor call), ...
	Args   int   // number of arguments
	Line   int
	Byte   uint32
	// ArgExprs are the argument expressions, recorded by extractors of
	// languages that choose among overloads by argument types (Java) or
	// whose callables flow through arguments (Features.ValueFlow: a
	// keyword argument is an ExprKeyword); nil otherwise.
	ArgExprs []*Expr
	// Bare: the callee is written without an argument list (Scala `x.size`,
	// `count`), which calls it only when it names a method; a value, a
	// type or an object named so is read, not called.
	Bare bool
}

// Binding records that, inside a scope, a local name was given a declared
// type or a value. It is flow-insensitive: the resolver takes the first
// binding that yields a type.
type Binding struct {
	Scope int // enclosing callable symbol, -1 at file level
	Name  string
	Type  string // declared type as written, "" when not declared
	Value *Expr
	// Index is the position of Name in a tuple assignment (`a, b := f()`).
	Index int
	// Elem: the name is bound to one element of Value (range/for-of loops).
	Elem bool
	// Field: the binding is `self.Name = Value` / `this.Name = Value` on
	// the enclosing class, not a local.
	Field bool
	// A binding without a Name binds nothing: its Value is a store for
	// the value flow of callables (flow.go, flowStores), such as Go's
	// `x.f = v` or a returned composite literal.
	// Byte and End bound where the binding is visible: from Byte to End
	// (End 0: to the end of the scope). The resolver picks, among the
	// bindings of a name visible at a use, the one that starts last.
	Byte, End uint32
}

// Ref is a read or write of a name that may be a package-level Variable or
// Const: `limit` or `config.Limit`. Extractors record each distinct
// expression once per scope.
type Ref struct {
	Scope int
	Expr  *Expr // ExprIdent or ExprMember
	Line  int
	Write bool
}

// ImportKind is the shape of an import.
type ImportKind uint8

// Import kinds.
const (
	// ImportModule binds a whole module or package to a name: Go `import
	// "fmt"`, Python `import a.b as c`, TS `import * as ns`, CommonJS
	// `const x = require('./x')`.
	ImportModule ImportKind = iota
	// ImportName binds one exported name: Python `from m import x as y`, TS
	// `import {x as y}` / default imports (Name "default"), Java single-type
	// and static imports.
	ImportName
	// ImportWildcard makes every exported name visible: Java `.*`, Python
	// `from m import *`, Go dot imports, TS `export * from`.
	ImportWildcard
	// ImportSideEffect loads a module for its effects only: Go blank
	// imports, TS `import './x'`.
	ImportSideEffect
)

// Import is one import as written.
type Import struct {
	Kind ImportKind
	// Path is the module specifier as written: "fmt", "./util",
	// "..pkg.mod" (Python relative), "com.foo.Bar" (Java).
	Path string
	// Name is the imported name for ImportName ("default" for a default
	// import); empty otherwise.
	Name string
	// Alias is the local name the import binds; empty when it binds the
	// natural name (the package name, the imported name).
	Alias string
	Line  int
	// Reexport: the import is also an export of this module (TS `export
	// {x} from`, `export * from`, `export * as ns from`).
	Reexport bool
	// Static: a Java static import.
	Static bool
	// Scope: an import inside a function (Python), -1 at file level.
	Scope int
}

// Export is a name a JS/TS module exports from its own scope: `export {a as
// b}`, `export default a`, `module.exports = {a}`, `exports.b = a`. Symbols
// declared with `export` are marked Exported instead. `module.exports = a`
// and TS `export = a` replace the whole module value: Name is ExportAssign.
type Export struct {
	Name  string // exported name; "default" for default exports, ExportAssign
	Local string // local name it refers to; "" when the value is anonymous
	// Value is the exported expression when it is not a local name
	// (`export default new Foo()`, `module.exports = createApp()`), nil
	// when the resolver cannot type it.
	Value *Expr
	Line  int
}

// ExportAssign is the Export name for `module.exports = x` and `export = x`.
const ExportAssign = "="

// AddSymbol appends s to the file's symbols, its name made valid UTF-8 and
// its qualified name its name when empty, and returns its index.
func (f *FileFacts) AddSymbol(s Symbol) int {
	s.Name = ValidUTF8(s.Name)
	if s.Qual == "" {
		s.Qual = s.Name
	}
	f.Symbols = append(f.Symbols, s)
	return len(f.Symbols) - 1
}

// QualIn is name qualified by the symbol at index parent
// (Server.Handle), or name alone when parent is -1.
func (f *FileFacts) QualIn(parent int, name string) string {
	if parent < 0 {
		return name
	}
	return f.Symbols[parent].Qual + "." + name
}
