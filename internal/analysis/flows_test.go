package analysis

import "testing"

func TestBaseLabel(t *testing.T) {
	for label, want := range map[string]string{
		"http": "http", "http (cookie)": "http", "http 2": "http", "http (cookie) 2": "http (cookie)",
		"v2": "v2", "net 2fa": "net 2fa", "a (b": "a (b", "(x)": "(x)",
	} {
		if got := BaseLabel(label); got != want {
			t.Errorf("BaseLabel(%q) = %q, want %q", label, got, want)
		}
	}
}
