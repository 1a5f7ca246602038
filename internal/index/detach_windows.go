//go:build windows

package index

import (
	"os/exec"
	"syscall"
)

// detach runs cmd without a console and in a process group of its own: a
// console's Ctrl-C reaches the analyze that started it, not the catch-up.
func detach(cmd *exec.Cmd) {
	const detachedProcess = 0x00000008
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}
