package ingest

import (
	"io/fs"
	"syscall"
)

// sigOf is the signature of the file fi describes: its size, modification
// and change times (nanoseconds) and inode. Any write changes the times,
// and an editor that saves by renaming a new file over the old one
// changes the inode.
func sigOf(fi fs.FileInfo) fileSig {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileSig{}
	}
	return fileSig{size: fi.Size(), mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino}
}
