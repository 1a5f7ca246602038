//go:build unix

package cli

import "syscall"

// writable reports why dir is not writable by this process, nil when it is.
func writable(dir string) error {
	return syscall.Access(dir, 2 /* W_OK */)
}
