//go:build !windows

package index

import (
	"os/exec"
	"syscall"
)

// detach runs cmd in a session of its own: a terminal's Ctrl-C or hang-up
// reaches the analyze that started it, not the catch-up.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
