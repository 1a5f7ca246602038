package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// The history blob beside the database. A re-index that changes the
// history (a commit since the index) no longer rewrites the blob's row:
// updating 5.7 MB inside the transaction took about 50 ms of a committed
// trpc edit (the rollback journal copies the old pages too). The blob goes
// to a file of its own in the index's directory, history-<hash>.blob,
// written before the transaction commits, and row 2 of snapshot holds
// only a reference to it: historyRefMagic and the blob's SHA-256.
//
// The git_* tables stay the store of record, written in the transaction.
// The file is only a copy of them that reads faster, and it is trusted
// only when its content has the hash the committed row names: a file
// missing, damaged or not yet renamed into place (a run killed before or
// after its commit, a machine that lost what it had not synced) reads as
// no blob, and the history is read from the tables. Readers of the state
// before a commit keep finding the file their row names until the writer,
// once committed, removes the files the index no longer names.
//
// A new file (write.go) keeps the blob in its row, as before.

// historyRefMagic starts a row 2 that names a file rather than holding
// the blob (whose first byte is a small uvarint version).
const historyRefMagic = "GNXHFILE"

const (
	historyFilePrefix = "history-"
	historyFileSuffix = ".blob"
)

// historyRef is the row that names the file holding blob, and the file's
// name.
func historyRef(blob []byte) (row []byte, name string) {
	sum := sha256.Sum256(blob)
	return append([]byte(historyRefMagic), sum[:]...), historyFileName(sum[:])
}

func historyFileName(sum []byte) string {
	return historyFilePrefix + hex.EncodeToString(sum[:16]) + historyFileSuffix
}

// isHistoryRef reports whether a row 2 names a file.
func isHistoryRef(row []byte) bool {
	return len(row) == len(historyRefMagic)+sha256.Size && string(row[:len(historyRefMagic)]) == historyRefMagic
}

// resolveHistoryRow returns the blob a row 2 stands for: the row itself,
// or the content of the file in dir it names when that content has the
// row's hash; nil when it has not (the caller reads the tables).
func resolveHistoryRow(dir string, row []byte) []byte {
	if !isHistoryRef(row) {
		return row
	}
	sum := row[len(historyRefMagic):]
	blob, err := os.ReadFile(filepath.Join(dir, historyFileName(sum)))
	if err != nil {
		return nil
	}
	if got := sha256.Sum256(blob); !bytes.Equal(got[:], sum) {
		return nil
	}
	return blob
}

// writeHistoryFile writes blob to its file in dir, through a temporary
// file renamed into place (a reader never sees half of it; nothing is
// synced: a file lost with the machine only reads as missing), and
// returns the row naming it and the file's name.
func writeHistoryFile(dir string, blob []byte) (row []byte, name string, err error) {
	row, name = historyRef(blob)
	tmp := filepath.Join(dir, name+".tmp")
	if err := os.WriteFile(tmp, blob, 0o644); err != nil {
		return nil, "", err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return nil, "", err
	}
	return row, name, nil
}

// RemoveHistoryFiles removes every history file in dir (gitnexus clean).
func RemoveHistoryFiles(dir string) { removeHistoryFiles(dir, "") }

// removeHistoryFiles removes the history files in dir other than keep
// (none when keep is ""), and temporary ones left by a killed write.
// Errors are ignored: a file left behind is only disk space, and the next
// write tries again.
func removeHistoryFiles(dir, keep string) {
	names, _ := filepath.Glob(filepath.Join(dir, historyFilePrefix+"*"))
	for _, n := range names {
		base := filepath.Base(n)
		if base != keep && (strings.HasSuffix(base, historyFileSuffix) || strings.HasSuffix(base, historyFileSuffix+".tmp")) {
			os.Remove(n)
		}
	}
}
