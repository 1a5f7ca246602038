package cli

import (
	"crypto/rand"
	"crypto/sha256"
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
// cache: its version and a hash of the executable itself, so that a build
// with other extractors (even one with the same version, built from a
// changed work tree) never reads facts another build extracted.
var extractorKey = sync.OnceValue(func() string {
	key := "gitnexus " + Version()
	exe, err := os.Executable()
	if err != nil {
		return key + " unhashed " + randomKey()
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
