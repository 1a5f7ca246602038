package analysis

import "fmt"

// InputError is a request that cannot be answered as asked: a path that is
// not a git work tree, a ref that names no commit, a symbol of a kind the
// operation does not apply to. Transports report it as the caller's
// mistake (HTTP 400), never as a failure of the server.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

func inputErrorf(format string, args ...any) error {
	return &InputError{msg: fmt.Sprintf(format, args...)}
}

// StaleError is an operation refused because the files changed since it
// was planned (HTTP 409).
type StaleError struct{ msg string }

func (e *StaleError) Error() string { return e.msg }

func staleErrorf(format string, args ...any) error {
	return &StaleError{msg: fmt.Sprintf(format, args...)}
}

// NewInputError is an InputError with this message, for callers outside
// the package that check requests.
func NewInputError(msg string) error { return &InputError{msg: msg} }
