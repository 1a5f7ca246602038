package golang

import (
	"fmt"
	"strings"
	"testing"
)

// TestStdlibInterfaces checks the generated table for the interfaces calls
// go through most, embedded interfaces expanded.
func TestStdlibInterfaces(t *testing.T) {
	cases := []struct {
		name, methods string
	}{
		{"error", "Error/0/1"},
		{"net/http.ResponseWriter", "Header/0/1 Write/1/2 WriteHeader/1/0"},
		{"net/http.Handler", "ServeHTTP/2/0"},
		{"net/http.Flusher", "Flush/0/0"},
		{"io.Writer", "Write/1/2"},
		{"io.Reader", "Read/1/2"},
		{"io.Closer", "Close/0/1"},
		{"io.ReadWriteCloser", "Close/0/1 Read/1/2 Write/1/2"},
		{"fmt.Stringer", "String/0/1"},
		{"sort.Interface", "Len/0/1 Less/2/1 Swap/2/0"},
		{"container/heap.Interface", "Len/0/1 Less/2/1 Pop/0/1 Push/1/0 Swap/2/0"},
		{"context.Context", "Deadline/0/2 Done/0/1 Err/0/1 Value/1/1"},
		{"encoding/json.Marshaler", "MarshalJSON/0/2"},
		{"flag.Value", "Set/1/1 String/0/1"},
		{"hash.Hash", "BlockSize/0/1 Reset/0/0 Size/0/1 Sum/1/1 Write/1/2"},
		{"os.FileInfo", "IsDir/0/1 ModTime/0/1 Mode/0/1 Name/0/1 Size/0/1 Sys/0/1"}, // an alias of io/fs.FileInfo
	}
	for _, c := range cases {
		ms, ok := rules{}.ExternalInterface(c.name)
		if !ok {
			t.Errorf("%s: not in the table", c.name)
			continue
		}
		var got []string
		for _, m := range ms {
			got = append(got, fmt.Sprintf("%s/%d/%d", m.Name, m.Params, m.Results))
		}
		if g := strings.Join(got, " "); g != c.methods {
			t.Errorf("%s: %s, want %s", c.name, g, c.methods)
		}
	}
	// Left out: constraints (type terms) and interfaces with unexported
	// methods, which no type outside their package implements.
	for _, name := range []string{"cmp.Ordered", "testing.TB", "reflect.Type", "net/http.responseWriter"} {
		if _, ok := (rules{}).ExternalInterface(name); ok {
			t.Errorf("%s is in the table", name)
		}
	}
	if n := len(stdlibInterfaces.All()); n < 150 {
		t.Errorf("only %d interfaces in the table", n)
	}
}
