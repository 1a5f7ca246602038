// Package cypher runs a read-only subset of openCypher over the in-memory
// code graph (internal/memgraph).
//
// A query goes through four stages, each in its own files:
//
//	lex, parse   lexer.go, parser*.go → ast.go      syntax, with line:column errors
//	resolve      resolve*.go, compile*.go           scopes, variables → row slots,
//	                                                expressions → evaluation functions
//	plan         plan*.go, rewrite.go               start from the most selective pattern
//	                                                element, push predicates down;
//	                                                immutable plan nodes that print
//	execute      exec*.go                           pull-based iterators with row,
//	                                                memory and time limits
//
// The graph as Cypher sees it (labels, properties, the CodeRelation
// relationship type) is described by the tables in properties.go and
// served to agents by SchemaText. Results come back as a Result, which
// renders as a markdown table for agents or as JSON rows.
//
// Everything is read-only: write clauses, CALL procedures, LOAD CSV and
// FOREACH are refused at parse time with a list of what is supported.
package cypher
