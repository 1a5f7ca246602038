package index

import (
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"gitnexus.dev/gitnexus/internal/store"
)

// ExtractCacheName is the extraction cache's file in the index directory
// (its log is the same name with ".log").
const ExtractCacheName = "extract.cache"

// extractorKey names the extractors of this executable for the extraction
// cache (and the writer of an index changed in place): its version and the
// Go build id of the executable, which the toolchain derives from the
// build's inputs and output, so that a build with other extractors (even
// one with the same version, built from a changed work tree) never reads
// facts another build extracted.
func extractorKey(version string) string { return "gitnexus " + version + executableKey() }

// executableKey is the part of extractorKey that names the executable: its
// Go build id, or without one (not an ELF file) a hash of the whole
// executable, which costs about 50 ms.
var executableKey = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return " unhashed " + randomKey()
	}
	if id := goBuildID(exe); id != "" {
		return " build " + id
	}
	f, err := os.Open(exe)
	if err != nil {
		return " unhashed " + randomKey()
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return " unhashed " + randomKey()
	}
	return " " + hex.EncodeToString(h.Sum(nil))
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

// checkOwnDir refuses to overwrite a .gitnexus that is not ours without
// --force: a file of that name, or a meta.json written by another tool.
func checkOwnDir(root string, force bool) error {
	dir := store.Dir(root)
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is a file, not an index directory: move it away, then run gitnexus analyze again", dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, store.MetaName))
	if err != nil {
		return nil
	}
	var m struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(b, &m) == nil && m.Format == store.MetaFormat {
		return nil
	}
	if force {
		return nil
	}
	return fmt.Errorf("%s holds an index written by another tool (its meta.json is not ours); rerun with --force to replace our files there (other files are left alone)", dir)
}
