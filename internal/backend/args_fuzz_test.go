package backend

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzToolArgs feeds arbitrary JSON objects to every tool's argument
// decoder: it accepts them or returns an ArgError, never panics, and what
// it accepts reads back with the declared types and within the declared
// bounds.
func FuzzToolArgs(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"name":"Get"}`, `{"maxDepth":3.5}`, `{"maxDepth":"3"}`, `{"relationTypes":["CALLS",1]}`,
		`{"relationTypes":"CALLS,IMPORTS"}`, `{"dry_run":"false"}`, `{"limit":1e308}`, `{"limit":-1}`,
		`{"direction":"sideways"}`, `{"query":null}`, `{"params":{"a":1}}`, `{"symbol":"x","name":"y"}`,
		`{"depth":6}`, `{"depth":2,"max_depth":2}`, `{"depth":2,"maxDepth":3}`, `{"module":"example.com/shop/order"}`,
		`{"folder":"a","package":"b"}`, `{"kind":"Function","file":"a.go","file_path":"a.go"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var m map[string]any
		if json.Unmarshal([]byte(raw), &m) != nil {
			return
		}
		for _, tool := range Tools() {
			a, err := newArgs(tool, m)
			if err != nil {
				var ae *ArgError
				if !errors.As(err, &ae) {
					t.Fatalf("%s %s: error %v is not an ArgError", tool.Name, raw, err)
				}
				continue
			}
			for _, p := range tool.Params {
				switch p.Type {
				case TypeString:
					a.String(p.Name)
				case TypeInteger:
					// Bounds hold for what is accepted (depth of the call
					// trees at most 5, limits at least 1).
					v := float64(a.Int(p.Name))
					if (p.Min != nil && v < *p.Min) || (p.Max != nil && v > *p.Max) {
						t.Fatalf("%s %s: %s = %v is out of its bounds", tool.Name, raw, p.Name, v)
					}
				case TypeNumber:
					a.Float(p.Name)
				case TypeBoolean:
					a.Bool(p.Name)
				case TypeArray:
					a.Strings(p.Name)
				case TypeObject:
					a.Object(p.Name)
				}
			}
		}
	})
}
