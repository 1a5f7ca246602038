//go:build unix

package testservices

import (
	"os/exec"
	"syscall"
)

var sigTerm = syscall.SIGTERM

// childAttrs runs a server in a process group of its own, as uid/gid when
// asked (>= 0); on Linux it also dies with the test process.
func childAttrs(cmd *exec.Cmd, uid, gid int) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	deathSignal(cmd.SysProcAttr)
	asUser(cmd, uid, gid)
}

// asUser runs cmd as uid/gid when asked (>= 0).
func asUser(cmd *exec.Cmd, uid, gid int) {
	if uid < 0 {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// killGroup kills the process and the processes it started.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
