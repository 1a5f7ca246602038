package lang

import (
	"reflect"
	"testing"
)

// filler sets every field of a value to something not zero, each value
// distinct, so that a field the codec forgets or mixes up with another
// fails the round trip.
type filler struct{ n int }

func (f *filler) fill(v reflect.Value, depth int) {
	f.n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+f.n%26)) + string(rune('A'+f.n/26%26)))
	case reflect.Int:
		v.SetInt(int64(f.n) * int64(1-2*(f.n%2))) // negative too
	case reflect.Uint8:
		v.SetUint(uint64(1 + f.n%7))
	case reflect.Uint32:
		v.SetUint(uint64(f.n) << 20)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Pointer:
		if depth > 3 {
			return // nil: an Expr chain ends
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	default:
		panic("facts codec test: no filler for " + v.Type().String())
	}
}

func TestFactsCodecRoundTrip(t *testing.T) {
	full := &FileFacts{}
	(&filler{}).fill(reflect.ValueOf(full).Elem(), 0)
	// nil against empty, and a zero Expr against a nil one, are kept apart.
	edge := &FileFacts{
		Path:    "a.go",
		Symbols: []Symbol{{Parent: -1, Returns: []string{}, Params: []Param{}, Bases: []Base{}, Value: &Expr{}}},
		Calls:   []Call{{Scope: -1, Callee: &Expr{Kind: ExprCall, Args: []*Expr{}}, ArgExprs: []*Expr{nil, {}}}},
		Imports: []Import{},
	}
	tests := []struct {
		name string
		f    *FileFacts
	}{
		{"every field set", full},
		{"nil and empty", edge},
		{"zero", &FileFacts{}},
	}
	decoders := []struct {
		name   string
		decode func([]byte) (*FileFacts, []byte, error)
	}{{"copied", DecodeFacts}, {"shared", loaded(DecodeFactsShared)}}
	for _, dec := range decoders {
		for _, tc := range tests {
			t.Run(dec.name+"/"+tc.name, func(t *testing.T) {
				data := AppendFacts([]byte("prefix"), tc.f)
				got, rest, err := dec.decode(append(data[len("prefix"):], "next"...))
				if err != nil {
					t.Fatal(err)
				}
				if string(rest) != "next" {
					t.Errorf("rest %q, want %q", rest, "next")
				}
				if !reflect.DeepEqual(got, tc.f) {
					t.Errorf("round trip:\n got %#v\nwant %#v", got, tc.f)
				}
			})
		}
		// Every strict prefix of a form is an error, not a panic or a
		// different value.
		data := AppendFacts(nil, full)
		for i := 0; i < len(data); i++ {
			if _, _, err := dec.decode(data[:i]); err == nil {
				t.Fatalf("%s: the first %d of %d bytes decoded without error", dec.name, i, len(data))
			}
		}
	}
}

func FuzzDecodeFacts(f *testing.F) {
	full := &FileFacts{}
	(&filler{}).fill(reflect.ValueOf(full).Elem(), 0)
	f.Add(AppendFacts(nil, full))
	f.Add(AppendFacts(nil, &FileFacts{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		ff, _, err := DecodeFacts(data)
		if err != nil {
			return
		}
		// What decodes encodes back to a form that decodes the same,
		// with its strings copied or shared.
		again, _, err := DecodeFacts(AppendFacts(nil, ff))
		if err != nil || !reflect.DeepEqual(again, ff) {
			t.Fatalf("re-encoding changed the facts: %v", err)
		}
		shared, _, err := loaded(DecodeFactsShared)(data)
		if err != nil || !reflect.DeepEqual(shared, ff) {
			t.Fatalf("the shared decoding differs: %v", err)
		}
	})
}

// loaded decodes with decode, then loads the calls it left encoded (and
// drops what held them): the facts as DecodeFacts gives them.
func loaded(decode func([]byte) (*FileFacts, []byte, error)) func([]byte) (*FileFacts, []byte, error) {
	return func(data []byte) (*FileFacts, []byte, error) {
		f, rest, err := decode(data)
		if err == nil {
			f.LoadCalls()
			f.lazy = nil
		}
		return f, rest, err
	}
}

// TestLazyCalls: facts decoded with their strings shared leave the calls
// encoded until LoadCalls, which any number of goroutines may call at once.
func TestLazyCalls(t *testing.T) {
	full := &FileFacts{}
	(&filler{}).fill(reflect.ValueOf(full).Elem(), 0)
	f, _, err := DecodeFactsShared(AppendFacts(nil, full))
	if err != nil {
		t.Fatal(err)
	}
	if f.Calls != nil || f.lazy == nil {
		t.Fatalf("the calls were decoded at once: %d", len(f.Calls))
	}
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			f.LoadCalls()
			if !reflect.DeepEqual(f.Calls, full.Calls) {
				t.Errorf("calls %#v, want %#v", f.Calls, full.Calls)
			}
		}()
	}
	for range 4 {
		<-done
	}
	// Encoding facts whose calls are still encoded keeps them.
	g, _, err := DecodeFactsShared(AppendFacts(nil, full))
	if err != nil {
		t.Fatal(err)
	}
	again, _, err := DecodeFacts(AppendFacts(nil, g))
	if err != nil || !reflect.DeepEqual(again.Calls, full.Calls) {
		t.Errorf("re-encoded calls %#v, want %#v (%v)", again.Calls, full.Calls, err)
	}
}
