// Package cypher runs a read-only subset of openCypher over the in-memory
// code graph (internal/memgraph).
//
// A query goes through four stages, each in its own files:
//
//	lex, parse   lexer.go, parser*.go → ast.go   syntax, with line:column
//	                                             errors and a caret
//	resolve      aliases.go, compile*.go,        other write-ups' words → ours;
//	             scope.go                        scopes, variables → row
//	                                             slots, expressions → functions
//	rewrite,     plan_match.go, plan_pattern.go, property maps and WHERE into
//	plan         plan_shortest.go                predicates and index seeks;
//	                                             the most selective start;
//	                                             predicates pushed down (into
//	                                             shortest-path searches too);
//	                                             immutable plan nodes (plan.go)
//	execute      exec*.go, varexpand_*.go,       pull-based iterators under
//	             shortest_search.go, limits.go   row, time and memory limits
//
// The graph as Cypher sees it (labels, properties, the CodeRelation
// relationship type) is described by the tables in properties.go and
// served to agents by SchemaText. Results come back as a Result, which
// renders as a markdown table for agents or as JSON rows.
//
// Everything is read-only: write clauses, CALL procedures, LOAD CSV and
// FOREACH are refused at parse time with a list of what is supported.
package cypher
