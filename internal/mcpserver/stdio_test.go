package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestFilterLinesSkipsAnOverlongLine: a line past MaxLineBytes is
// answered and skipped to its end; the next line passes.
func TestFilterLinesSkipsAnOverlongLine(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	in := `{"jsonrpc":"2.0","id":1,"method":"ping","x":"` + strings.Repeat("x", MaxLineBytes) + "\"}\n" + ping + "\n"
	pr, pw := io.Pipe()
	var out bytes.Buffer
	go filterLines(strings.NewReader(in), pw, &out)
	passed, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	if string(passed) != ping+"\n" {
		t.Errorf("passed on %.100q, want the ping", passed)
	}
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is longer than 16777216 bytes"}}` + "\n"
	if out.String() != want {
		t.Errorf("answered %q, want %q", out.String(), want)
	}
}

// FuzzStdioLine: whatever a line holds, the filter either passes on
// messages the SDK decodes (one a line, or a batch of them) or answers
// with JSON-RPC errors that are JSON; never both for a single message,
// never a panic.
func FuzzStdioLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{}`, `[]`, `42`, `not json`, "{\"a\":\"\xff\"}",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{}]`, `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return // one line at a time
		}
		var out bytes.Buffer
		lf := &lineFilter{out: &out}
		passed, ok := lf.check([]byte(line))
		if ok {
			p := bytes.TrimSpace(passed)
			if !bytes.HasSuffix(passed, []byte("\n")) || bytes.Contains(p, []byte("\n")) {
				t.Fatalf("passed on %q: not one line", passed)
			}
			if p[0] == '[' {
				var batch []json.RawMessage
				if err := json.Unmarshal(p, &batch); err != nil || len(batch) == 0 {
					t.Fatalf("passed on a batch that is not one: %q", p)
				}
				for _, m := range batch {
					if _, err := jsonrpc.DecodeMessage(m); err != nil {
						t.Fatalf("passed on %q, which the SDK refuses: %v", m, err)
					}
				}
			} else if _, err := jsonrpc.DecodeMessage(p); err != nil {
				t.Fatalf("passed on %q, which the SDK refuses: %v", p, err)
			}
		} else if out.Len() == 0 && strings.TrimSpace(line) != "" {
			t.Fatalf("%q was neither passed on nor answered", line)
		}
		for _, a := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if a == "" {
				continue
			}
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct{ Code int }
			}
			if err := json.Unmarshal([]byte(a), &msg); err != nil || msg.JSONRPC != "2.0" || (msg.Error.Code != -32700 && msg.Error.Code != -32600) {
				t.Fatalf("answer %q is not a JSON-RPC error", a)
			}
		}
	})
}
