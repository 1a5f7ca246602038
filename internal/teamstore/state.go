package teamstore

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// A push compares every row of the index with the store's. Reading the
// store's row hashes of a large repository takes longer than reading the
// index (the Go standard library: 1.5 million rows), so a push leaves, in
// the index's directory, the hashes it left the store with, under the push's
// random id, which the store's row of the repository keeps too. The next
// push from this index reads the file instead of the store when the ids
// match: nobody pushed this key since, from anywhere. A missing, damaged or
// outdated file only costs the read.

const stateMagic = "GNXPUSH1"

// pushState is what the store holds of a repository after a push: the
// push's id and each table's row hashes (a hash repeated for a repeated
// row).
type pushState struct {
	id     string
	tables map[string][]rowHash
}

func newPushID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statePath is the file of one store and key.
func statePath(indexDir, where, key string) string {
	sum := sha256.Sum256([]byte(where + "\x00" + key))
	return filepath.Join(indexDir, "push-"+hex.EncodeToString(sum[:8])+".state")
}

func writeState(path string, st *pushState) error {
	var b bytes.Buffer
	b.WriteString(stateMagic)
	writeStr := func(s string) {
		b.Write(binary.AppendUvarint(nil, uint64(len(s))))
		b.WriteString(s)
	}
	writeStr(st.id)
	b.Write(binary.AppendUvarint(nil, uint64(len(st.tables))))
	for name, hs := range st.tables {
		writeStr(name)
		b.Write(binary.AppendUvarint(nil, uint64(len(hs))))
		for _, h := range hs {
			b.Write(h[:])
		}
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

var errState = errors.New("damaged push state")

func readState(path string) (*pushState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < len(stateMagic)+sha256.Size || string(data[:len(stateMagic)]) != stateMagic {
		return nil, errState
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errState
	}
	r := bufio.NewReader(bytes.NewReader(body[len(stateMagic):]))
	readStr := func() (string, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(len(body)) {
			return "", errState
		}
		s := make([]byte, n)
		if _, err := io.ReadFull(r, s); err != nil {
			return "", errState
		}
		return string(s), nil
	}
	st := &pushState{tables: map[string][]rowHash{}}
	if st.id, err = readStr(); err != nil {
		return nil, err
	}
	nt, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, errState
	}
	for i := uint64(0); i < nt; i++ {
		name, err := readStr()
		if err != nil {
			return nil, err
		}
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(len(body))/16 {
			return nil, errState
		}
		hs := make([]rowHash, n)
		for j := range hs {
			if _, err := io.ReadFull(r, hs[j][:]); err != nil {
				return nil, errState
			}
		}
		st.tables[name] = hs
	}
	return st, nil
}
