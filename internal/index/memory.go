package index

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/hugeheap"
	"gitnexus.dev/gitnexus/internal/store"
)

// ReserveHugeHeap advises huge pages for the heap an analysis of root will
// grow: six times the index's size and 256 MiB more (a re-index of the Go
// standard library, a 296 MB index, peaks at 1.6 GB), or, without an index,
// a quarter of the machine's memory, 8 GiB at most (root ""). Only what is
// touched becomes resident, but the advice costs 4 ms per GiB, hence the
// estimate. The first call of a process decides.
func ReserveHugeHeap(root string) {
	limit := totalMemory() / 4
	if limit <= 0 {
		limit = 2 << 30
	}
	limit = min(limit, 8<<30)
	size := limit
	if fi, err := os.Stat(filepath.Join(store.Dir(root), store.DBName)); root != "" && err == nil {
		size = min(6*fi.Size()+256<<20, limit)
	}
	hugeheap.Reserve(size)
}

// gcPercent is the garbage collector's target for an analyze. Indexing
// holds every file's facts until resolution: collecting twice as often as
// Go's default keeps the peak about a sixth lower (1.47 to 1.22 GB on the
// Go standard library) for no measurable time when everything is
// extracted (no index, --force, no extraction cache of the index:
// reextract). A re-index is another matter: it reads the extraction cache
// and the index's snapshot, and collecting is a good part of its time.
// Collecting half as often as Go's default takes a re-index of trpc
// (18,600 nodes) from 0.68 s to 0.53 s for 55 MB more at the peak; a
// quarter as often takes one of the Go standard library (240,000 nodes) to
// 0.86 of the time at 50, for a peak of 2.2 GB instead of 1.5 (less often
// again is no faster). The memory limit, half the machine's
// (totalMemory), makes it collect sooner where memory is short. Measured
// in bench/incremental/RESULTS.md.
func gcPercent(prevNodes int, reextract bool) int {
	switch {
	case prevNodes < 0 || reextract:
		return 50
	case prevNodes < 100_000:
		return 200
	default:
		return 400
	}
}

// totalMemory is the machine's memory in bytes (Linux's /proc/meminfo), 0
// when it cannot tell.
func totalMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return parseMemTotal(string(data))
}

// parseMemTotal reads the MemTotal line of /proc/meminfo ("MemTotal:
// 24577000 kB"), 0 when there is none.
func parseMemTotal(meminfo string) int64 {
	for _, line := range strings.Split(meminfo, "\n") {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// indexedSize is the node and edge counts an index's meta keeps, -1 for
// each it does not say, and its edge counts by type (nil when it does not
// say).
func indexedSize(meta store.Meta) (nodes, edges int, byType map[string]int) {
	var s struct {
		Nodes       *int           `json:"nodes"`
		Edges       *int           `json:"edges"`
		EdgesByType map[string]int `json:"edgesByType"`
	}
	if json.Unmarshal(meta.Stats, &s) != nil {
		return -1, -1, nil
	}
	nodes, edges, byType = -1, -1, s.EdgesByType
	if s.Nodes != nil {
		nodes = *s.Nodes
	}
	if s.Edges != nil {
		edges = *s.Edges
	}
	return nodes, edges, byType
}
