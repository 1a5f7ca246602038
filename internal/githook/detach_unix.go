//go:build unix

package githook

import "syscall"

// detached starts the runner in a session of its own: no signal from the
// terminal or from git reaches it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
