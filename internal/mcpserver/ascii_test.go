package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestASCIIWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"ascii passes through", []string{`{"a":"b\n"}` + "\n"}, `{"a":"b\n"}` + "\n"},
		{"two-byte and three-byte characters", []string{`"é…→"`}, `"\u00e9\u2026\u2192"`},
		{"above U+FFFF: a surrogate pair", []string{`"😀"`}, `"\ud83d\ude00"`},
		{"a character split between writes", []string{"\"x\xe2\x80", "\xa6y\""}, `"x\u2026y"`},
		{"not UTF-8", []string{"\"\xff\""}, `"\ufffd"`},
		{"empty write", []string{"", `"a"`}, `"a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			w := &ASCIIWriter{W: &out}
			for _, s := range tc.writes {
				n, err := w.Write([]byte(s))
				if err != nil || n != len(s) {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", s, n, err, len(s))
				}
			}
			if got := out.String(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// FuzzASCIIWriter: whatever a string holds, its JSON written through the
// writer is ASCII and decodes to the same string, however the writes split it.
func FuzzASCIIWriter(f *testing.F) {
	for _, s := range []string{"", "plain", "Items 1–100 … more → next", "😀 and 中文", "\xff\xfe"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, split uint8) {
		doc, err := json.Marshal(map[string]string{"text": s})
		if err != nil {
			t.Skip()
		}
		var out bytes.Buffer
		w := &ASCIIWriter{W: &out}
		cut := 0
		if len(doc) > 0 {
			cut = int(split) % len(doc)
		}
		w.Write(doc[:cut])
		w.Write(doc[cut:])
		for _, c := range out.Bytes() {
			if c >= 0x80 {
				t.Fatalf("non-ASCII byte %#x in %q", c, out.Bytes())
			}
		}
		var want, got map[string]string
		json.Unmarshal(doc, &want)
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("escaped JSON %q does not decode: %v", out.Bytes(), err)
		}
		if got["text"] != want["text"] {
			t.Fatalf("decoded %q, want %q", got["text"], want["text"])
		}
	})
}
