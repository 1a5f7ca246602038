//go:build unix && !linux

package testservices

import "syscall"

// deathSignal: only Linux kills a child with its parent; elsewhere a
// test's cleanup stops its servers.
func deathSignal(*syscall.SysProcAttr) {}
