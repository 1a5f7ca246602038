package cypher

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The schema as agents read it (the MCP resource gitnexus://repo/{name}/
// schema serves it). Labels, properties, edge types and reasons come from
// the tables the engine uses, so the text cannot drift from the engine;
// the descriptions below are checked to cover every kind, type and reason.

var kindDocs = map[graph.NodeKind]string{
	graph.KindFolder:           "a directory holding indexed files",
	graph.KindFile:             "an indexed file, in a supported language or not",
	graph.KindPackage:          "a Go, Java or Python package, or a TS/JS directory of sources",
	graph.KindFunction:         "a function (TS/JS: also an arrow function or function expression assigned to a variable or field)",
	graph.KindMethod:           "a method, including interface methods",
	graph.KindConstructor:      "a constructor (Python __init__, TS constructor, Java constructors)",
	graph.KindClass:            "a class (Java anonymous classes are named Outer$1)",
	graph.KindInterface:        "an interface",
	graph.KindStruct:           "a struct",
	graph.KindEnum:             "an enum",
	graph.KindTypeAlias:        "an alias, or a Go defined type that is not a struct or interface",
	graph.KindConst:            "a package- or module-level constant",
	graph.KindVariable:         "a package- or module-level variable",
	graph.KindProperty:         "a field",
	graph.KindCommunity:        "a functional area: callables and types that call each other more than the rest (members have MEMBER_OF edges to it)",
	graph.KindProcess:          "an execution flow: calls traced from an entry point (steps have STEP_IN_PROCESS edges with `step`)",
	graph.KindCommit:           "a git commit (analyze reads the first-parent history of HEAD by default); `name` is its short hash, `qualifiedName` its full hash",
	graph.KindHistoricalSymbol: "a symbol a commit changed that no longer exists at HEAD (`filePath` is its last path, `kind` the kind it had)",
}

var edgeDocs = map[graph.EdgeType]string{
	graph.EdgeContains:      "Folder → Folder or File; Package → File",
	graph.EdgeDefines:       "File → top-level symbol; function → symbol declared inside it",
	graph.EdgeHasMethod:     "type → method or constructor",
	graph.EdgeHasProperty:   "type → field",
	graph.EdgeImports:       "File → Package or File it imports (`line` is the import line)",
	graph.EdgeCalls:         "callable → callable it calls (`line` is the first call site); File → callable for calls outside functions; → Class when a class without constructor is instantiated",
	graph.EdgeExtends:       "type → base type; Go struct → embedded type",
	graph.EdgeImplements:    "type → interface (declared, or for Go computed from method sets)",
	graph.EdgeReferences:    "callable → package-level Variable or Const it reads or writes",
	graph.EdgeMemberOf:      "callable or type → the Community it belongs to",
	graph.EdgeStepInProcess: "callable → a Process it is a step of (`step` is its 1-based position)",
	graph.EdgeEntryPointOf:  "callable → the Process it starts",
	graph.EdgeParentOf:      "Commit → child Commit",
	graph.EdgeReverts:       "Commit → the Commit it reverts (named by \"This reverts commit <hash>\" in its message)",
	graph.EdgeModifies:      "Commit → File it added, modified, deleted or renamed (the File at HEAD, following renames); `changeType`, `additions`, `deletions`, `oldPath`",
	graph.EdgeChanges:       "Commit → symbol whose lines it changed (the symbol at HEAD, or a HistoricalSymbol); `changeType`, `additions`, `deletions`",
}

var reasonDocs = map[graph.Reason]string{
	graph.ReasonSyntax:           "read off the syntax tree",
	graph.ReasonPackageMember:    "a package contains a file",
	graph.ReasonDeclared:         "a base type written in the source",
	graph.ReasonSameFile:         "call or reference to a symbol of the same file",
	graph.ReasonSamePackage:      "to a symbol of the same package, found without an import",
	graph.ReasonImportResolved:   "the name was bound by an import",
	graph.ReasonSelfReceiver:     "a method called through the receiver, self, this or super",
	graph.ReasonReceiverTyped:    "a method found through the inferred type of the receiver",
	graph.ReasonInherited:        "like receiver-typed, found on a base type or through embedding",
	graph.ReasonMethodSet:        "Go implicit interface satisfaction",
	graph.ReasonValueFlow:        "a call through a variable, field or parameter, to a callable that an assignment or argument stores there",
	graph.ReasonDispatch:         "a call through an interface or overridden method, to an implementation that may run",
	graph.ReasonDispatchExternal: "a call through an interface declared outside the repository, to a type of the repository that implements it",
	graph.ReasonNameOnly:         "a guess: the receiver could not be typed and one callable has that name",
	graph.ReasonCommunity:        "membership found by community detection",
	graph.ReasonTrace:            "a step of a traced flow; confidence is the lowest of the calls reaching it",
	graph.ReasonGit:              "read from git: parents, changed files, a revert's message",
	graph.ReasonDiffHunk:         "a line the commit added or deleted lies in the symbol, as it was in that commit",
}

// Example is one query of the schema text.
type Example struct {
	Question string
	Query    string
}

// Examples are queries in the style agents write; the schema text lists
// them and a test runs each one.
var Examples = []Example{
	{"Who calls a function?", "MATCH (caller)-[:CALLS]->(f:Function {name: 'validate'}) RETURN caller.qualifiedName, caller.filePath"},
	{"The same, with the relationship table and its type property",
		"MATCH (a)-[r:CodeRelation {type: 'CALLS'}]->(b:Function {name: 'validate'}) RETURN a.name, a.filePath, r.confidence"},
	{"What does a method call, most certain first?",
		"MATCH (m:Method {name: 'Place'})-[r:CALLS]->(callee) RETURN callee.qualifiedName, r.confidence, r.reason, r.line ORDER BY r.confidence DESC"},
	{"Everything that reaches a function within three calls",
		"MATCH (c)-[:CALLS*1..3]->(f:Function {name: 'validate'}) RETURN DISTINCT c.qualifiedName, c.filePath"},
	{"The shortest call path from one function to another (allShortestPaths: every path of that length)",
		"MATCH p = shortestPath((a:Function {name: 'main'})-[:CALLS*..6]->(b:Function {name: 'validate'})) RETURN [n IN nodes(p) | n.name] AS path, length(p) AS calls"},
	{"Exported functions nothing calls",
		"MATCH (f:Function) WHERE f.isExported AND NOT ()-[:CALLS]->(f) RETURN f.qualifiedName, f.filePath ORDER BY f.filePath"},
	{"Functions called only from tests",
		"MATCH (f:Function)<-[:CALLS]-(c) WITH f, collect(c) AS callers WHERE all(c IN callers WHERE c.filePath ENDS WITH '_test.go') RETURN f.qualifiedName, size(callers) AS testCallers"},
	{"The most called functions and methods",
		"MATCH (f)<-[:CALLS]-(c) WHERE f:Function OR f:Method RETURN f.qualifiedName, count(c) AS callers ORDER BY callers DESC LIMIT 10"},
	{"Methods of a type", "MATCH (t:Struct {name: 'Service'})-[:HAS_METHOD]->(m) RETURN m.name, m.signature ORDER BY m.startLine"},
	{"Implementations of an interface", "MATCH (t)-[r:IMPLEMENTS]->(i:Interface {name: 'Charger'}) RETURN t.qualifiedName, r.reason"},
	{"Symbols of a file in source order",
		"MATCH (f:File {filePath: 'order/order.go'})-[:DEFINES]->(s) RETURN labels(s)[0] AS kind, s.name, s.startLine ORDER BY s.startLine"},
	{"Which packages import which",
		"MATCH (p:Package)-[:CONTAINS]->(:File)-[:IMPORTS]->(q:Package) RETURN DISTINCT p.qualifiedName AS from, q.qualifiedName AS to ORDER BY from, to"},
	{"Calls resolved by guesswork, to double-check",
		"MATCH (a)-[r:CALLS]->(b) WHERE r.reason IN ['name-only', 'dispatch'] RETURN a.qualifiedName, b.qualifiedName, r.reason, r.confidence"},
	{"Undocumented exported API", "MATCH (n) WHERE (n:Function OR n:Method) AND n.isExported AND n.doc = '' RETURN n.qualifiedName, n.filePath LIMIT 20"},
	{"The source of a symbol", "MATCH (m:Method {name: 'Place'}) RETURN m.filePath, m.startLine, m.endLine, m.content"},
	{"The largest functional areas", "MATCH (c:Community) RETURN c.label, c.cohesion, c.symbolCount, c.keywords ORDER BY c.symbolCount DESC LIMIT 10"},
	{"The execution flows through a method, step by step",
		"MATCH (m:Method {name: 'Place'})-[:STEP_IN_PROCESS]->(p:Process)<-[r:STEP_IN_PROCESS]-(s) RETURN p.label, p.processType, r.step, s.qualifiedName ORDER BY p.label, r.step"},
}

// docRow is a label or edge kind of the schema text, with its meaning and
// how many the repository has.
type docRow struct {
	name, doc string
	count     int
}

// writeDocTable writes head (a markdown header row) and the rows; with
// counts, countHead and each row's count as a last column.
func writeDocTable(b *strings.Builder, head, countHead string, rows []docRow, counts bool) {
	b.WriteString(head)
	if counts {
		b.WriteString(countHead)
	}
	b.WriteString("\n|---|---|")
	if counts {
		b.WriteString("---|")
	}
	b.WriteByte('\n')
	for _, r := range rows {
		fmt.Fprintf(b, "| `%s` | %s |", r.name, r.doc)
		if counts {
			fmt.Fprintf(b, " %d |", r.count)
		}
		b.WriteByte('\n')
	}
}

// SchemaText describes the graph as Cypher sees it, with example queries.
// With a graph it also counts the nodes of each label and edges of each
// type in that repository.
func SchemaText(g *memgraph.Graph) string {
	var b strings.Builder
	b.WriteString("# The code graph for Cypher (read-only)\n\n")
	b.WriteString("Nodes have one label, their kind. Every relationship has the type `" + RelationshipType +
		"`; its `type` property is the edge kind, which can also be written as the relationship type: " +
		"`-[:CALLS]->` means `-[:" + RelationshipType + " {type: 'CALLS'}]->`, and `[r:CALLS|IMPORTS]` matches either.\n\n")
	b.WriteString(aliasSummary() + "\n")
	var nodeCounts map[graph.NodeKind]int
	var edgeCounts map[graph.EdgeType]int
	if g != nil {
		nodeCounts, edgeCounts = map[graph.NodeKind]int{}, map[graph.EdgeType]int{}
		for _, k := range graph.AllKinds() {
			nodeCounts[k] = len(g.ByKind(k))
		}
		for i := range g.Nodes {
			for _, e := range g.Out(memgraph.NodeID(i)) {
				edgeCounts[e.Type]++
			}
		}
	}
	var rows []docRow
	for _, k := range graph.AllKinds() {
		rows = append(rows, docRow{k.String(), kindDocs[k], nodeCounts[k]})
	}
	writeDocTable(&b, "## Node labels\n\n| label | what |", " nodes here |", rows, g != nil)
	b.WriteString("\n## Node properties\n\n| property | type | meaning |\n|---|---|---|\n")
	for _, p := range NodeProperties {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, p.Type, p.Doc)
	}
	b.WriteString("\nA property a node does not have (any other name) is null. `doc` and `content` are read from the index on demand: " +
		"use them in RETURN or a narrow WHERE, not to scan the whole graph.\n")
	b.WriteString("\n## Relationship properties (`" + RelationshipType + "`)\n\n| property | type | meaning |\n|---|---|---|\n")
	for _, p := range RelProperties {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, p.Type, p.Doc)
	}
	rows = rows[:0]
	for _, t := range graph.AllEdgeTypes() {
		rows = append(rows, docRow{t.String(), edgeDocs[t], edgeCounts[t]})
	}
	writeDocTable(&b, "\n## Edge kinds (the `type` property)\n\n| type | from → to |", " edges here |", rows, g != nil)
	b.WriteString("\n## Reasons (the `reason` property) and their confidence\n\n| reason | confidence | meaning |\n|---|---|---|\n")
	for _, r := range graph.AllReasons() {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r, formatFloat(r.Confidence()), reasonDocs[r])
	}
	fmt.Fprintf(&b, "\n## What the engine runs\n\nMATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, DISTINCT, ORDER BY, SKIP, LIMIT, UNION, EXPLAIN; "+
		"variable-length relationships (`*1..3`; `*` means at most %d hops); named paths; pattern predicates, EXISTS { } and COUNT { }; "+
		"list comprehensions, CASE, parameters ($name). Writing clauses, CALL, LOAD CSV and FOREACH are refused: the graph is read-only. "+
		"Results are cut at a row limit (%d by default) and say so; a query stops after a time limit (%s by default).\n",
		MaxVarLength, DefaultMaxRows, DefaultTimeout)
	b.WriteString("\nFunctions: " + strings.Join(functionNames(), ", ") + ".\n")
	b.WriteString("\n## Examples\n")
	for _, ex := range Examples {
		fmt.Fprintf(&b, "\n%s\n```cypher\n%s\n```\n", ex.Question, ex.Query)
	}
	return b.String()
}
