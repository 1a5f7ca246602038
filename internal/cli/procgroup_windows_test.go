package cli_test

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel starts cmd in a process group of its own; its
// cancellation kills cmd (Windows has no signal for a whole group).
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
