package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMCPStdioSurvivesMalformedInput sends each kind of bad line a client
// (or an attacker with the pipe) can write, each followed by a good call:
// every bad line gets the JSON-RPC error the specification gives it, every
// good call its answer, and the server exits 0 at the end of its input.
func TestMCPStdioSurvivesMalformedInput(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	bad := []struct {
		name, line string
		code       int
		id         any // the id the error must carry; nil for null
	}{
		{"not JSON", `not json at all`, -32700, nil},
		{"cut short", `{"jsonrpc":"2.0","id":7,"method":"pi`, -32700, nil},
		{"not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"x\":\"\xff\xfe\"}", -32700, nil},
		{"nested too deep", deep, -32700, nil},
		{"two values on a line", `{"jsonrpc":"2.0","id":9,"method":"ping"} {}`, -32700, nil},
		{"empty object", `{}`, -32600, nil},
		{"a number", `42`, -32600, nil},
		{"a string", `"ping"`, -32600, nil},
		{"empty batch", `[]`, -32600, nil},
		{"wrong version", `{"jsonrpc":"1.0","id":10,"method":"ping"}`, -32600, float64(10)},
		{"no method, no result", `{"jsonrpc":"2.0"}`, -32600, nil},
		{"an object as id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{"a method that is not a string", `{"jsonrpc":"2.0","id":"s11","method":12}`, -32600, "s11"},
		{"a batch after 2025-06-18", `[{"jsonrpc":"2.0","id":12,"method":"ping"}]`, -32600, float64(12)},
	}
	// Answered by the server itself as errors of the call, not of the line.
	sdkErrors := []string{
		`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":"x"}`,
		`{"jsonrpc":"2.0","id":14,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":15,"result":{}}`, // a response to nothing
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bad","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"", "   ",
	}
	good := 100
	call := func() string {
		good++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": good, "method": "tools/call",
			"params": map[string]any{"name": "context", "arguments": map[string]any{"name": "validate"}}})
		return string(b)
	}
	for _, b := range bad {
		lines = append(lines, b.line, call())
	}
	for _, l := range sdkErrors {
		lines = append(lines, l, call())
	}
	out := mcpLines(t, home, root, lines)
	type errorMsg struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	var answered []float64
	var errs []struct {
		id  any
		err errorMsg
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *errorMsg       `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &msg); err != nil {
			t.Fatalf("stdout holds something other than protocol: %q", l)
		}
		switch {
		case msg.Error != nil:
			errs = append(errs, struct {
				id  any
				err errorMsg
			}{msg.ID, *msg.Error})
		case msg.Result != nil:
			if id, ok := msg.ID.(float64); ok && id > 100 {
				if !strings.Contains(string(msg.Result), "validate") {
					t.Errorf("call %v: %s", id, l)
				}
				answered = append(answered, id)
			}
		}
	}
	if len(answered) != good-100 {
		t.Errorf("%d of %d good calls answered:\n%s", len(answered), good-100, out.String())
	}
	// Each bad line has its error, in order among those of its kind.
	for _, b := range bad {
		found := -1
		for i, e := range errs {
			if e.err.Code == b.code && e.id == b.id {
				found = i
				break
			}
		}
		if found < 0 {
			t.Errorf("%s: no error %d with id %v among %v", b.name, b.code, b.id, errs)
			continue
		}
		if errs[found].err.Message == "" {
			t.Errorf("%s: the error has no message", b.name)
		}
		errs = append(errs[:found], errs[found+1:]...)
	}
	// What remains: the server's own answers to ids 13 and 14 (a response
	// to nothing is not answered).
	var rest []any
	for _, e := range errs {
		rest = append(rest, e.id)
	}
	if len(rest) != 2 || rest[0] != float64(13) || rest[1] != float64(14) {
		t.Errorf("other errors: %v, want the server's answers to 13 and 14", errs)
	}
}
