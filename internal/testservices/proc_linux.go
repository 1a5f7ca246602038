package testservices

import "syscall"

func deathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
