package githook

import "syscall"

// detachedProcess is DETACHED_PROCESS: the runner gets no console.
const detachedProcess = 0x00000008

// detached starts the runner in a process group of its own, without the
// console of the hook: no Ctrl-C from the terminal or from git reaches it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}
