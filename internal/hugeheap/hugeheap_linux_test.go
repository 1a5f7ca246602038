package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that holds
// addr.
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "VmFlags:") {
			if in {
				return line
			}
			continue
		}
		// A mapping's first line: "c000000000-c004000000 rw-p 00000000 00:00 0".
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		l, err1 := strconv.ParseUint(lo, 16, 64)
		h, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil {
			in = uintptr(l) <= addr && addr < uintptr(h)
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

func TestReserveAdvisesTheHeapsGrowth(t *testing.T) {
	if !available() {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	once = sync.Once{}
	if !Reserve(512 << 20) {
		t.Fatal("Reserve gave no advice")
	}
	if Reserve(512 << 20) {
		t.Fatal("a second Reserve advised again")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if held := ms.HeapSys - ms.HeapReleased; held > 256<<20 {
		t.Fatalf("the reservation is still held by the heap: %d MiB", held>>20)
	}
	// The heap's growth lands in the advised mapping.
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	mid := uintptr(unsafe.Pointer(&b[len(b)/2]))
	if flags := vmFlags(t, mid); !strings.Contains(flags, " hg") {
		t.Fatalf("the heap's new memory is not advised: %s", flags)
	}
	runtime.KeepAlive(b)
}

func TestReserveCanBeTurnedOff(t *testing.T) {
	t.Setenv(Env, "0")
	once = sync.Once{}
	if Reserve(512 << 20) {
		t.Fatal("Reserve advised with " + Env + "=0")
	}
}
