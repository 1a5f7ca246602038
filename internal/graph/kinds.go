// Package graph defines the shape of the code graph: node kinds, edge types,
// the provenance every edge carries (confidence and reason), stable node ids,
// and a builder that deduplicates while the graph is assembled.
//
// Everything here is plain data. Producers (language extractors and
// resolvers) and consumers (the store, the in-memory graph) agree on these
// names; the strings are what users see in SQL, Cypher and tool output.
package graph

import "fmt"

// NodeKind is the kind of a node. The string form is the Cypher label.
type NodeKind uint8

// Node kinds. Keep the order stable: the store persists the string form, but
// tests and the in-memory graph index by the number.
const (
	KindInvalid NodeKind = iota
	KindFolder
	KindFile
	KindPackage
	KindFunction
	KindMethod
	KindConstructor
	KindClass
	KindInterface
	KindStruct
	KindEnum
	KindTypeAlias
	KindConst
	KindVariable
	KindProperty
	KindCommunity
	KindProcess
	// KindCommit is a git commit; KindHistoricalSymbol a symbol that a
	// commit changed and that no longer exists at HEAD.
	KindCommit
	KindHistoricalSymbol
	numKinds
)

var kindNames = [...]string{
	KindInvalid:          "",
	KindFolder:           "Folder",
	KindFile:             "File",
	KindPackage:          "Package",
	KindFunction:         "Function",
	KindMethod:           "Method",
	KindConstructor:      "Constructor",
	KindClass:            "Class",
	KindInterface:        "Interface",
	KindStruct:           "Struct",
	KindEnum:             "Enum",
	KindTypeAlias:        "TypeAlias",
	KindConst:            "Const",
	KindVariable:         "Variable",
	KindProperty:         "Property",
	KindCommunity:        "Community",
	KindProcess:          "Process",
	KindCommit:           "Commit",
	KindHistoricalSymbol: "HistoricalSymbol",
}

func (k NodeKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("NodeKind(%d)", k)
}

// ParseKind returns the kind named s (a Cypher label), or KindInvalid.
func ParseKind(s string) NodeKind { return kindByName[s] }

// kindByName and edgeTypeByName invert kindNames and edgeNames: the store
// parses the type of every edge of a snapshot (66,000 on trpc), and
// comparing it with each name in turn took 8 ms of a re-index.
var (
	kindByName     = invert[NodeKind](kindNames[KindFolder:numKinds], KindFolder)
	edgeTypeByName = invert[EdgeType](edgeNames[EdgeContains:numEdgeTypes], EdgeContains)
)

func invert[T ~uint8](names []string, first T) map[string]T {
	m := make(map[string]T, len(names))
	for i, n := range names {
		m[n] = first + T(i)
	}
	return m
}

// AllKinds lists every valid node kind in declaration order.
func AllKinds() []NodeKind {
	out := make([]NodeKind, 0, numKinds-1)
	for k := KindFolder; k < numKinds; k++ {
		out = append(out, k)
	}
	return out
}

// KindNames are the names of AllKinds, in that order: the order in which
// summaries list node kinds.
func KindNames() []string {
	var out []string
	for _, k := range AllKinds() {
		out = append(out, k.String())
	}
	return out
}

// IsCallable reports whether nodes of this kind can make and receive calls.
func (k NodeKind) IsCallable() bool {
	return k == KindFunction || k == KindMethod || k == KindConstructor
}

// IsType reports whether the kind declares a type that can have members.
func (k NodeKind) IsType() bool {
	switch k {
	case KindClass, KindInterface, KindStruct, KindEnum, KindTypeAlias:
		return true
	}
	return false
}

// IsSymbol reports whether the kind is a code symbol at HEAD (not a file,
// folder, package, community, process, commit or historical symbol).
func (k NodeKind) IsSymbol() bool {
	return k >= KindFunction && k <= KindProperty
}

// IsHistory reports whether the kind comes from the git history (Commit,
// HistoricalSymbol) rather than from the code at HEAD.
func (k NodeKind) IsHistory() bool {
	return k == KindCommit || k == KindHistoricalSymbol
}

// EdgeType is the type of a relationship. The string form is the value of the
// `type` property of a CodeRelation.
type EdgeType uint8

// Edge types.
const (
	EdgeInvalid EdgeType = iota
	EdgeContains
	EdgeDefines
	EdgeHasMethod
	EdgeHasProperty
	EdgeImports
	EdgeCalls
	EdgeExtends
	EdgeImplements
	EdgeReferences
	EdgeMemberOf
	EdgeStepInProcess
	EdgeEntryPointOf
	// History: PARENT_OF parent commit → child commit; REVERTS commit →
	// the commit it reverts; MODIFIES commit → File; CHANGES commit →
	// symbol (or HistoricalSymbol).
	EdgeParentOf
	EdgeReverts
	EdgeModifies
	EdgeChanges
	numEdgeTypes
)

var edgeNames = [...]string{
	EdgeInvalid:       "",
	EdgeContains:      "CONTAINS",
	EdgeDefines:       "DEFINES",
	EdgeHasMethod:     "HAS_METHOD",
	EdgeHasProperty:   "HAS_PROPERTY",
	EdgeImports:       "IMPORTS",
	EdgeCalls:         "CALLS",
	EdgeExtends:       "EXTENDS",
	EdgeImplements:    "IMPLEMENTS",
	EdgeReferences:    "REFERENCES",
	EdgeMemberOf:      "MEMBER_OF",
	EdgeStepInProcess: "STEP_IN_PROCESS",
	EdgeEntryPointOf:  "ENTRY_POINT_OF",
	EdgeParentOf:      "PARENT_OF",
	EdgeReverts:       "REVERTS",
	EdgeModifies:      "MODIFIES",
	EdgeChanges:       "CHANGES",
}

func (t EdgeType) String() string {
	if int(t) < len(edgeNames) {
		return edgeNames[t]
	}
	return fmt.Sprintf("EdgeType(%d)", t)
}

// ParseEdgeType returns the edge type named s, or EdgeInvalid.
func ParseEdgeType(s string) EdgeType { return edgeTypeByName[s] }

// IsHistory reports whether the edge type comes from the git history.
func (t EdgeType) IsHistory() bool { return t >= EdgeParentOf && t < numEdgeTypes }

// AllEdgeTypes lists every valid edge type in declaration order.
func AllEdgeTypes() []EdgeType {
	out := make([]EdgeType, 0, numEdgeTypes-1)
	for t := EdgeContains; t < numEdgeTypes; t++ {
		out = append(out, t)
	}
	return out
}

// EdgeTypeNames are the names of AllEdgeTypes, in that order: the order in
// which summaries and error messages list edge types.
func EdgeTypeNames() []string {
	var out []string
	for _, t := range AllEdgeTypes() {
		out = append(out, t.String())
	}
	return out
}
