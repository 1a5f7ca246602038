package golang

// EvalConstraint exposes the build-constraint evaluator to tests.
var EvalConstraint = evalConstraint
