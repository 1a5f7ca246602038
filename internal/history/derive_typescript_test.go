package history

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestDeriveTypeScriptOverloads derives the version before edits of
// TypeScript files from the version after them and requires what reading
// it whole gives. An overload signature is a symbol or not depending on
// the declarations around it (lang.StandAloneTree): such files are read
// whole, the others derived.
func TestDeriveTypeScriptOverloads(t *testing.T) {
	cases := []struct {
		name, pre, post string
		derived         bool
	}{
		{"implementation added", "export function f(a: string): void;\nexport function f(a: number): void;\n\nexport function g() {}\n",
			"export function f(a: string): void;\nexport function f(a: number): void;\nexport function f(a: any) {}\n\nexport function g() {}\n", false},
		{"implementation removed behind a comment", "function f(a: number): void;\n// c\nfunction f(a) {}\nfunction g() {}\n",
			"function f(a: number): void;\n// c\n\nfunction g() {}\n", false},
		{"an earlier signature of the name", "declare function h(a: string): void;\ndeclare const x: number;\ndeclare function h(a: bigint): void;\n",
			"declare const x: number;\ndeclare function h(a: bigint): void;\n", false},
		{"in a namespace merged with another", "declare namespace N { function f(a: string): void; }\nlet y = 1;\ndeclare namespace N { function f(a: number): void; }\n",
			"let y = 1;\ndeclare namespace N { function f(a: number): void; }\n", false},
		{"no signatures", "function f() {}\n\nclass C { m(): void; m() {} }\n",
			"function f() { return 1 }\n\nclass C { m(): void; m() {} }\n", true},
	}
	b := newBlobParser(false)
	defer b.close()
	l := lang.ForPath("a.ts")
	if l == nil {
		t.Fatal("no language reads .ts files")
	}
	for _, c := range cases {
		post, err := b.parse(l, "a.ts", []byte(c.post))
		if err != nil {
			t.Fatal(err)
		}
		want, err := b.parse(l, "a.ts", []byte(c.pre))
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := b.derive(l, "a.ts", []byte(c.pre), post, lineHunks([]byte(c.pre), []byte(c.post)))
		if err != nil {
			t.Fatal(err)
		}
		if ok != c.derived {
			t.Errorf("%s: derived %v, want %v", c.name, ok, c.derived)
		}
		if ok && (!reflect.DeepEqual(got.syms, want.syms) || !reflect.DeepEqual(got.runs, want.runs)) {
			t.Errorf("%s: derived\n%+v\nread whole\n%+v", c.name, got.syms, want.syms)
		}
	}
}
