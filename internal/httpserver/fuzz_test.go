package httpserver

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzDecodeBody: any body decodes to an object or an error that maps to a
// 4xx status, never a panic or a 500.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{``, `{}`, `{"a":1}`, `[]`, `null`, `{"a":}`, `{} {}`, `"x"`, `{"a":{"b":[1,2,{"c":null}]}}`, "\xff\xfe"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("POST", "/api/v1/tools/query", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		m, err := decodeBody(r)
		if err == nil {
			if m == nil {
				t.Fatalf("nil object without an error for %q", body)
			}
			return
		}
		if status, _ := statusOf(err); status != 400 {
			t.Fatalf("%q: status %d for %v", body, status, err)
		}
		if !errors.Is(err, errBadBody) {
			t.Fatalf("%q: %v is not a bad-body error", body, err)
		}
	})
}
