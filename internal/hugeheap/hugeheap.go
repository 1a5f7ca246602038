// Package hugeheap asks the kernel to back the Go heap with transparent huge
// pages where it only does so on request (Linux's
// /sys/kernel/mm/transparent_hugepage/enabled set to "madvise", the default
// of many distributions).
//
// A re-index allocates most of its heap anew in every process: 1.5 GB on the
// Go standard library, touched 4 KiB at a time. On a virtual machine each
// first touch is a page fault of 10–20 µs, and the faults were half the run's
// time. A 2 MiB page takes one fault for 512 of them.
//
// The runtime maps heap memory as it grows, without the advice, and the
// advice holds only for the mapping it is given. So Reserve makes the heap
// grow once, by one large allocation it never touches, advises that mapping,
// and returns the memory to the runtime: the heap's later growth up to that
// size lands in the advised mapping, and nothing is resident until touched.
package hugeheap

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// Env is the environment variable that turns Reserve off when set to 0.
const Env = "GITNEXUS_HUGEPAGES"

var once sync.Once

// Reserve advises huge pages for the next size bytes of heap growth, once
// per process; later calls do nothing. It reports whether the advice was
// given. Call it before the heap grows much (first thing in a command):
// memory the heap holds already keeps its pages.
func Reserve(size int64) (advised bool) {
	once.Do(func() {
		if os.Getenv(Env) == "0" || size < 64<<20 || !available() {
			return
		}
		// The allocation must not be counted live by a collection it
		// starts, or the next collection's goal would be set from it.
		prev := debug.SetGCPercent(-1)
		b := make([]byte, size) // fresh memory from the OS: not zeroed, not touched
		advised = advise(b)
		runtime.KeepAlive(b)
		b = nil
		debug.SetGCPercent(prev)
		// Collect it, and give its pages back to the OS at once (they
		// were never touched, so this costs only the calls): the runtime
		// then counts none of it as held, and reuses the mapping, with its
		// advice, as the heap grows.
		debug.FreeOSMemory()
	})
	return advised
}
