package cli

import (
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"

	"gitnexus.dev/gitnexus/internal/store"
)

// extractCacheName is the extraction cache's file in the index directory.
const extractCacheName = "extract.cache"

// extractorKey names the extractors of this executable for the extraction
// cache (and the writer of an index changed in place): its version and the
// Go build id of the executable, which the toolchain derives from the
// build's inputs and output, so that a build with other extractors (even
// one with the same version, built from a changed work tree) never reads
// facts another build extracted. Without a build id (not an ELF file) the
// whole executable is hashed instead, which costs about 50 ms.
var extractorKey = sync.OnceValue(func() string {
	key := "gitnexus " + Version()
	exe, err := os.Executable()
	if err != nil {
		return key + " unhashed " + randomKey()
	}
	if id := goBuildID(exe); id != "" {
		return key + " build " + id
	}
	f, err := os.Open(exe)
	if err != nil {
		return key + " unhashed " + randomKey()
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return key + " unhashed " + randomKey()
	}
	return key + " " + hex.EncodeToString(h.Sum(nil))
})

// goBuildID reads the Go build id note of an ELF executable, "" when it
// has none.
func goBuildID(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil {
		return ""
	}
	b, err := sec.Data()
	// The note: name size, descriptor size, type (4 bytes each), the name
	// "Go\x00\x00", then the id.
	if err != nil || len(b) < 16 || string(b[12:16]) != "Go\x00\x00" {
		return ""
	}
	size := int(f.ByteOrder.Uint32(b[4:8]))
	if size <= 0 || 16+size > len(b) {
		return ""
	}
	return string(b[16 : 16+size])
}

// removeLeftovers removes the temporary files of a run that was killed
// (the database and the extraction cache are written to "<name>.tmp-*" and
// renamed into place). The caller holds the writer lock, so no run is
// writing them.
func removeLeftovers(root string) {
	left, _ := filepath.Glob(filepath.Join(store.Dir(root), "*.tmp-*"))
	for _, l := range left {
		os.Remove(l)
	}
}

// randomKey makes a key no cache file has: without a hash of the
// executable, nothing is reused.
func randomKey() string { return rand.Text() }
