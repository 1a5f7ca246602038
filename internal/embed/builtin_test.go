package embed

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// TestBuiltinNeighbours checks that the shipped vectors put texts about the
// same thing closer than texts about other things, in words that share no
// subword.
func TestBuiltinNeighbours(t *testing.T) {
	b, err := NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	if b.Dimensions() != 128 || b.Identity() != "builtin:subword-v1/128" {
		t.Fatalf("dimensions %d, identity %q", b.Dimensions(), b.Identity())
	}
	cases := []struct {
		query, near, far string
	}{
		{"check the login", "func authenticate(user, password string) error", "func compressBlock(dst, src []byte) int"},
		{"shrink the file", "zlib deflate writer", "parse the URL query"},
		{"wait before trying again", "retry with backoff after a timeout", "sort the keys in ascending order"},
		{"order the records", "sort.Slice(rows, less)", "open a TCP socket"},
		{"encrypt data", "cipher block with a nonce", "render the HTML template"},
	}
	for _, tc := range cases {
		v, err := b.Embed(context.Background(), []string{tc.query, tc.near, tc.far})
		if err != nil {
			t.Fatal(err)
		}
		near, far := dot32(v[0], v[1]), dot32(v[0], v[2])
		if near <= far+0.05 {
			t.Errorf("%q: similarity to %q is %.2f, to %q %.2f; want the first clearly higher", tc.query, tc.near, near, tc.far, far)
		}
	}
	zero, _ := b.Embed(context.Background(), []string{"!!! 42"})
	for _, x := range zero[0] {
		if x != 0 {
			t.Fatalf("a text without known subwords has a vector: %v", zero[0])
		}
	}
}

func TestSubwordTableEncoding(t *testing.T) {
	tab := &SubwordTable{Name: "t", Dim: 2, Words: []string{"alpha", "beta"}, Weights: []float32{0.5, 1},
		Scales: []float32{0.01, 0.02}, Codes: []int8{127, 0, -3, 100}}
	b := tab.Encode()
	got, err := DecodeSubwordTable(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Encode(), b) {
		t.Fatal("decode then encode changes the bytes")
	}
	if i, ok := got.Lookup("beta"); !ok || i != 1 {
		t.Errorf("lookup beta: %d %v", i, ok)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append([]byte("X"), b...), b[:10]} {
		if _, err := DecodeSubwordTable(bad); err == nil {
			t.Errorf("decoded a damaged table of %d bytes", len(bad))
		}
	}
}

func dot32(a, b []float32) float32 {
	var d float32
	for i := range a {
		d += a[i] * b[i]
	}
	return d
}

// BenchmarkBuiltinEmbed embeds texts the size of the symbols' texts
// (1 KB, the default budget of 256 tokens) cut from this package's code.
func BenchmarkBuiltinEmbed(b *testing.B) {
	e, err := NewBuiltin()
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	for _, f := range []string{"openai.go", "onnx.go", "wordpiece.go", "config.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i+1024 <= len(src); i += 1024 {
			texts = append(texts, string(src[i:i+1024]))
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "texts/s")
}
