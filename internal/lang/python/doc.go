// Package python is the Python language: extraction of symbols, imports,
// calls, bindings and references from Python source with tree-sitter, and
// the rules that resolve them (modules as files, packages as directories
// with __init__.py, source roots, relative imports, re-exports through
// __init__.py, scopes that skip class bodies, builtins, pytest fixtures
// injected into tests' parameters by name: fixtures.go).
package python
