//go:build unix

package backend

import (
	"os"
	"syscall"
)

// inode is the file's inode number.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
