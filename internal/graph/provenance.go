package graph

// Reason says how an edge was established. The set is small and documented in
// docs/schema.md; every edge carries exactly one.
type Reason string

// The reasons, from most to least certain.
const (
	// ReasonSyntax: read directly off the syntax tree (CONTAINS, DEFINES,
	// HAS_METHOD, HAS_PROPERTY).
	ReasonSyntax Reason = "syntax"
	// ReasonPackageMember: a Package contains a File because the file declares
	// (or, for directory-based languages, lives in) that package.
	ReasonPackageMember Reason = "package-member"
	// ReasonDeclared: a base type written in the source (extends, implements,
	// Python bases, Go embedding) resolved to a type in the repository.
	ReasonDeclared Reason = "declared"
	// ReasonSameFile: a call or reference to a symbol defined in the same file.
	ReasonSameFile Reason = "same-file"
	// ReasonSamePackage: to a symbol of the same package (Go, Java) found
	// without an import.
	ReasonSamePackage Reason = "same-package"
	// ReasonImportResolved: the name was bound by an import that resolved to a
	// file or package of the repository.
	ReasonImportResolved Reason = "import-resolved"
	// ReasonSelfReceiver: a method called through self, this, super or the
	// enclosing class.
	ReasonSelfReceiver Reason = "self-receiver"
	// ReasonReceiverTyped: a method or field found through the inferred type
	// of the receiver expression.
	ReasonReceiverTyped Reason = "receiver-typed"
	// ReasonInherited: like receiver-typed, but the member was found on a base
	// type or promoted through a Go embedded field.
	ReasonInherited Reason = "inherited"
	// ReasonMethodSet: Go implicit interface satisfaction computed from method
	// sets.
	ReasonMethodSet Reason = "method-set"
	// ReasonValueFlow: a call through a variable, field or parameter,
	// linked to a function, class or instance's call member that some
	// assignment or argument of the repository stores in it.
	ReasonValueFlow Reason = "value-flow"
	// ReasonDispatch: a call through an interface, abstract or overridden
	// method, linked to an implementation that may run.
	ReasonDispatch Reason = "dispatch"
	// ReasonDispatchExternal: a call through an interface declared
	// outside the repository (Go's error or http.ResponseWriter, Java's
	// Runnable), linked to a type of the repository that implements it.
	// Below dispatch: the value is most often of a type outside the
	// repository (the standard library's own writer or error), so the
	// repository's implementation runs only where it passes its own.
	ReasonDispatchExternal Reason = "dispatch-external"
	// ReasonNameOnly: the receiver could not be typed and exactly one callable
	// of that name exists; a guess, never more than 0.5.
	ReasonNameOnly Reason = "name-only"
	// ReasonCommunity: a symbol belongs to a community found by community
	// detection over the call and type graph (MEMBER_OF).
	ReasonCommunity Reason = "community"
	// ReasonTrace: a symbol is a step or the entry of an execution flow
	// traced over confident CALLS edges (STEP_IN_PROCESS, ENTRY_POINT_OF);
	// the edge carries the lowest confidence of the calls that reach it.
	ReasonTrace Reason = "trace"
	// ReasonGit: read from git: a commit's parents, the files it changed,
	// and the commit named by its "This reverts commit <hash>" line.
	ReasonGit Reason = "git"
	// ReasonDiffHunk: a line the commit's diff added or deleted lies in the
	// symbol as it was in that commit (post-image, or pre-image for
	// deleted lines).
	ReasonDiffHunk Reason = "diff-hunk"
)

// AllReasons lists every reason, in the order above.
func AllReasons() []Reason {
	return []Reason{ReasonSyntax, ReasonPackageMember, ReasonDeclared, ReasonSameFile,
		ReasonSamePackage, ReasonImportResolved, ReasonSelfReceiver, ReasonReceiverTyped,
		ReasonInherited, ReasonMethodSet, ReasonValueFlow, ReasonDispatch, ReasonDispatchExternal, ReasonNameOnly, ReasonCommunity, ReasonTrace, ReasonGit, ReasonDiffHunk}
}

// Confidence is the default confidence for each reason. Resolvers use these
// values so that a confidence threshold means the same thing everywhere.
func (r Reason) Confidence() float64 {
	switch r {
	case ReasonSyntax, ReasonPackageMember, ReasonCommunity, ReasonGit, ReasonDiffHunk:
		return 1.0
	case ReasonDeclared, ReasonSameFile, ReasonSamePackage, ReasonImportResolved, ReasonSelfReceiver:
		return 0.95
	case ReasonReceiverTyped:
		return 0.9
	case ReasonInherited, ReasonMethodSet, ReasonTrace:
		return 0.85
	case ReasonValueFlow:
		return 0.7
	case ReasonDispatch:
		return 0.6
	case ReasonDispatchExternal:
		return 0.5
	case ReasonNameOnly:
		return 0.3
	}
	return 0.5
}
