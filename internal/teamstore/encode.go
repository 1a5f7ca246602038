package teamstore

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"unicode/utf8"
)

// A row of an index table is stored in PostgreSQL in columns of the
// types SQLite declares, so that the rows can be read with SQL, and is
// identified by the hash of its exact encoding (below). A value PostgreSQL
// cannot hold as declared (a text that is not UTF-8 or holds a NUL, a
// value of another storage class than its column's) makes the row keep
// its exact encoding as well (gn_raw), which the replica reads instead:
// nothing is lost or changed on the way.

// colKind is how a column is stored.
type colKind uint8

const (
	kindInt  colKind = iota // bigint
	kindReal                // double precision
	kindText                // text
	kindBlob                // bytea
	kindAny                 // bytea holding one encoded value (a column with no declared type)
)

// kindOf follows SQLite's rules for a declared type's affinity.
func kindOf(decl string) colKind {
	d := strings.ToUpper(decl)
	switch {
	case strings.Contains(d, "INT"):
		return kindInt
	case strings.Contains(d, "CHAR"), strings.Contains(d, "CLOB"), strings.Contains(d, "TEXT"):
		return kindText
	case d == "":
		return kindAny
	case strings.Contains(d, "BLOB"):
		return kindBlob
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return kindReal
	}
	return kindAny
}

func (k colKind) pgType() string {
	switch k {
	case kindInt:
		return "bigint"
	case kindReal:
		return "double precision"
	case kindText:
		return "text"
	}
	return "bytea"
}

// Value tags of the exact encoding.
const (
	tagNull byte = iota
	tagInt
	tagReal
	tagText
	tagBlob
)

// appendValue appends one value's exact encoding: a tag, then the value
// (a varint, eight bytes of a float, or a length and bytes).
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, tagNull)
	case int64:
		b = append(b, tagInt)
		return binary.AppendVarint(b, x)
	case float64:
		b = append(b, tagReal)
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	case string:
		b = append(b, tagText)
		b = binary.AppendUvarint(b, uint64(len(x)))
		return append(b, x...)
	case []byte:
		b = append(b, tagBlob)
		b = binary.AppendUvarint(b, uint64(len(x)))
		return append(b, x...)
	}
	panic("teamstore: a value of an unknown type")
}

var errEncoding = errors.New("damaged row encoding")

// readValue reads one value's encoding from b and returns the rest.
func readValue(b []byte) (any, []byte, error) {
	if len(b) == 0 {
		return nil, nil, errEncoding
	}
	tag, b := b[0], b[1:]
	switch tag {
	case tagNull:
		return nil, b, nil
	case tagInt:
		x, n := binary.Varint(b)
		if n <= 0 {
			return nil, nil, errEncoding
		}
		return x, b[n:], nil
	case tagReal:
		if len(b) < 8 {
			return nil, nil, errEncoding
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), b[8:], nil
	case tagText, tagBlob:
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return nil, nil, errEncoding
		}
		v := b[n : n+int(l)]
		if tag == tagText {
			return string(v), b[n+int(l):], nil
		}
		return append([]byte{}, v...), b[n+int(l):], nil
	}
	return nil, nil, errEncoding
}

// encodeRow is a row's exact encoding.
func encodeRow(buf []byte, vals []any) []byte {
	for _, v := range vals {
		buf = appendValue(buf, v)
	}
	return buf
}

// decodeRow reads n values.
func decodeRow(b []byte, n int) ([]any, error) {
	out := make([]any, n)
	for i := range out {
		v, rest, err := readValue(b)
		if err != nil {
			return nil, err
		}
		out[i], b = v, rest
	}
	if len(b) != 0 {
		return nil, errEncoding
	}
	return out, nil
}

// rowHash identifies a row by its content.
type rowHash [16]byte

func hashOf(enc []byte) rowHash {
	s := sha256.Sum256(enc)
	var h rowHash
	copy(h[:], s[:16])
	return h
}

// typed is the value a typed column holds and whether it holds it
// exactly; a column of kindAny holds the value's encoding.
func typed(k colKind, v any) (any, bool) {
	if v == nil {
		return nil, true
	}
	switch k {
	case kindInt:
		x, ok := v.(int64)
		return x, ok
	case kindReal:
		x, ok := v.(float64)
		return x, ok
	case kindText:
		s, ok := v.(string)
		if !ok || !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return nil, false
		}
		return s, true
	case kindBlob:
		x, ok := v.([]byte)
		return x, ok
	}
	return appendValue(nil, v), true
}

// untyped is the inverse of typed for a value read from PostgreSQL.
func untyped(k colKind, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if k == kindAny {
		b, ok := v.([]byte)
		if !ok {
			return nil, errEncoding
		}
		x, rest, err := readValue(b)
		if err == nil && len(rest) != 0 {
			err = errEncoding
		}
		return x, err
	}
	return v, nil
}
