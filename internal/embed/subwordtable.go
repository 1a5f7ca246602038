package embed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
)

// SubwordTable is a vector per subword with a weight: what the built-in
// embedder is made of. Vectors are int8 codes with a scale per row.
type SubwordTable struct {
	Name    string // names the training; part of the embedder's identity
	Dim     int
	Words   []string // sorted
	Weights []float32
	Scales  []float32
	Codes   []int8 // len(Words) × Dim
	index   map[string]int32
}

// subwordMagic opens an encoded table; the digit is the format version.
const subwordMagic = "GNXSW1\n"

// Encode writes the table: the magic, the name, the number of words and
// the dimension (unsigned varints; the name with its length first), the
// words each with its length, then the weights and the scales as
// little-endian float32, then the codes.
func (t *SubwordTable) Encode() []byte {
	b := []byte(subwordMagic)
	b = binary.AppendUvarint(b, uint64(len(t.Name)))
	b = append(b, t.Name...)
	b = binary.AppendUvarint(b, uint64(len(t.Words)))
	b = binary.AppendUvarint(b, uint64(t.Dim))
	for _, w := range t.Words {
		b = binary.AppendUvarint(b, uint64(len(w)))
		b = append(b, w...)
	}
	for _, fs := range [][]float32{t.Weights, t.Scales} {
		for _, f := range fs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	for _, c := range t.Codes {
		b = append(b, byte(c))
	}
	return b
}

// DecodeSubwordTable reads a table Encode wrote.
func DecodeSubwordTable(b []byte) (*SubwordTable, error) {
	errTrunc := errors.New("decode subword vectors: truncated")
	if len(b) < len(subwordMagic) || string(b[:len(subwordMagic)]) != subwordMagic {
		return nil, errors.New("decode subword vectors: not a table of this version")
	}
	b = b[len(subwordMagic):]
	next := func() (int, error) {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > 1<<30 {
			return 0, errTrunc
		}
		b = b[k:]
		return int(v), nil
	}
	text := func() (string, error) {
		n, err := next()
		if err != nil || n > len(b) {
			return "", errTrunc
		}
		s := string(b[:n])
		b = b[n:]
		return s, nil
	}
	t := &SubwordTable{}
	var err error
	if t.Name, err = text(); err != nil {
		return nil, err
	}
	n, err := next()
	if err != nil {
		return nil, err
	}
	if t.Dim, err = next(); err != nil {
		return nil, err
	}
	t.Words = make([]string, n)
	for i := range t.Words {
		if t.Words[i], err = text(); err != nil {
			return nil, err
		}
	}
	if !sort.StringsAreSorted(t.Words) {
		return nil, errors.New("decode subword vectors: words out of order")
	}
	if len(b) != n*8+n*t.Dim {
		return nil, fmt.Errorf("decode subword vectors: %d bytes of weights and vectors, want %d", len(b), n*8+n*t.Dim)
	}
	floats := func() []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		b = b[4*n:]
		return out
	}
	t.Weights, t.Scales = floats(), floats()
	t.Codes = make([]int8, len(b))
	for i, c := range b {
		t.Codes[i] = int8(c)
	}
	t.buildIndex()
	return t, nil
}

func (t *SubwordTable) buildIndex() {
	t.index = make(map[string]int32, len(t.Words))
	for i, w := range t.Words {
		t.index[w] = int32(i)
	}
}

// Lookup returns the row of a subword.
func (t *SubwordTable) Lookup(w string) (int, bool) {
	if t.index == nil {
		t.buildIndex()
	}
	i, ok := t.index[w]
	return int(i), ok
}

// Vector is the weighted mean of the vectors of text's subwords, unit
// length (zero when none is known).
func (t *SubwordTable) Vector(text string) []float32 {
	v := make([]float32, t.Dim)
	for _, w := range Subwords(text) {
		i, ok := t.Lookup(w)
		if !ok {
			continue
		}
		f := t.Weights[i] * t.Scales[i]
		for j, c := range t.Codes[i*t.Dim : (i+1)*t.Dim] {
			v[j] += f * float32(c)
		}
	}
	return Normalize(v)
}
