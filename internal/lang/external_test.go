package lang_test

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

func TestParseExternalInterfaces(t *testing.T) {
	text := `# a comment
 error Error/0/1

net/http
 ResponseWriter WriteHeader/1/0 Header/0/1 Write/1/2
 Flusher Flush/0/0
java.util
 Iterator next/0/1 hasNext/0/1 bad/x/1
`
	got := lang.ParseExternalInterfaces(text)
	want := map[string][]lang.ExternalMethod{
		"error":                   {{Name: "Error", Params: 0, Results: 1}},
		"net/http.ResponseWriter": {{Name: "Header", Params: 0, Results: 1}, {Name: "Write", Params: 1, Results: 2}, {Name: "WriteHeader", Params: 1, Results: 0}},
		"net/http.Flusher":        {{Name: "Flush"}},
		"java.util.Iterator":      {{Name: "hasNext", Results: 1}, {Name: "next", Results: 1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseExternalInterfaces = %+v\nwant %+v", got, want)
	}
}
