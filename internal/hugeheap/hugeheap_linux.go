package hugeheap

import (
	"os"
	"strings"
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// available reports whether transparent huge pages are given on advice:
// "madvise" mode. With "always" the kernel does it unasked, with "never" not
// at all.
func available() bool {
	data, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && strings.Contains(string(data), "[madvise]")
}

// advise gives MADV_HUGEPAGE for the whole huge pages inside b.
func advise(b []byte) bool {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + uintptr(len(b))) &^ (hugePage - 1)
	if hi <= lo {
		return false
	}
	return syscall.Madvise(b[lo-start:hi-start], syscall.MADV_HUGEPAGE) == nil
}
