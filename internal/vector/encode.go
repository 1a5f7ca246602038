package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// hnswMagic opens an encoded HNSW; the digit is the format version.
const hnswMagic = "HNSW1"

// MarshalBinary encodes the graph: the magic, then unsigned varints for
// the node count, M, the entry point and the top level, then each node's
// level, then each node's links layer by layer (a count, then the
// neighbours' indices).
func (h *HNSW) MarshalBinary() ([]byte, error) {
	b := []byte(hnswMagic)
	b = binary.AppendUvarint(b, uint64(len(h.Links)))
	b = binary.AppendUvarint(b, uint64(h.M))
	b = binary.AppendUvarint(b, uint64(h.Entry))
	b = binary.AppendUvarint(b, uint64(h.MaxLevel))
	for _, layers := range h.Links {
		b = append(b, byte(len(layers)-1))
	}
	for _, layers := range h.Links {
		for _, links := range layers {
			b = binary.AppendUvarint(b, uint64(len(links)))
			for _, n := range links {
				b = binary.AppendUvarint(b, uint64(n))
			}
		}
	}
	return b, nil
}

// DecodeHNSW reads a graph MarshalBinary wrote for a set of n vectors.
func DecodeHNSW(b []byte, n int) (*HNSW, error) {
	bad := func(what string) error { return fmt.Errorf("decode vector index: %s", what) }
	if len(b) < len(hnswMagic) || string(b[:len(hnswMagic)]) != hnswMagic {
		return nil, bad("not an HNSW of this version")
	}
	b = b[len(hnswMagic):]
	next := func() (uint64, error) {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, errors.New("decode vector index: truncated")
		}
		b = b[k:]
		return v, nil
	}
	var head [4]uint64
	for i := range head {
		v, err := next()
		if err != nil {
			return nil, err
		}
		head[i] = v
	}
	if int(head[0]) != n {
		return nil, bad(fmt.Sprintf("it links %d vectors, the index holds %d", head[0], n))
	}
	h := &HNSW{M: int(head[1]), Entry: int(head[2]), MaxLevel: int(head[3]), Links: make([][][]uint32, n)}
	if n > 0 && (h.Entry >= n || h.MaxLevel >= maxLevels) {
		return nil, bad("entry point or level out of range")
	}
	if len(b) < n {
		return nil, bad("truncated levels")
	}
	for i := 0; i < n; i++ {
		if int(b[i]) >= maxLevels {
			return nil, bad("level out of range")
		}
		h.Links[i] = make([][]uint32, int(b[i])+1)
	}
	if n > 0 && len(h.Links[h.Entry]) != h.MaxLevel+1 {
		return nil, bad("the entry point is not on the top level")
	}
	for i := range h.Links {
		if len(h.Links[i]) > h.MaxLevel+1 {
			return nil, bad("a node above the top level")
		}
	}
	b = b[n:]
	for i := range h.Links {
		for l := range h.Links[i] {
			c, err := next()
			if err != nil {
				return nil, err
			}
			if c > uint64(n) {
				return nil, bad("too many links")
			}
			links := make([]uint32, c)
			for k := range links {
				v, err := next()
				if err != nil {
					return nil, err
				}
				if v >= uint64(n) || len(h.Links[v]) <= l {
					return nil, bad("a link to a node not on that layer")
				}
				links[k] = uint32(v)
			}
			h.Links[i][l] = links
		}
	}
	if len(b) != 0 {
		return nil, bad("trailing bytes")
	}
	return h, nil
}
