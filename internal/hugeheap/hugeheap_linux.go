package hugeheap

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// available reports whether transparent huge pages are given on advice:
// "madvise" mode. With "always" the kernel does it unasked, with "never" not
// at all. Under strict overcommit accounting (vm.overcommit_memory 2) the
// untouched allocation would count against the commit limit, and the runtime
// gives up on an allocation the kernel refuses: no reservation there, nor on
// 32-bit systems, whose address space it would crowd.
func available() bool {
	if strconv.IntSize < 64 {
		return false
	}
	if data, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || strings.TrimSpace(string(data)) == "2" {
		return false
	}
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
