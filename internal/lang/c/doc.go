// Package c is the C language: extraction of functions, types, globals,
// macros and #include directives from C source with tree-sitter, and the
// rules that resolve them the way a C compiler and linker do: #include
// paths against the including file's directory and the include
// directories (compile_commands.json `-I` flags, else the usual layouts),
// calls against the file's own static functions first, then the one
// external definition of the name in the repository.
package c
