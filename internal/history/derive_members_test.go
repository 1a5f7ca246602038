package history

import (
	"reflect"
	"slices"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestDeriveJavaMembers derives the version before edits of Java files from
// the version after them and requires what reading it whole gives: the
// symbols, the lines they own and the units. A change inside a class body
// is read with the members it touches and the class's head and foot; a
// class holding anonymous classes (numbered by their order: lang.Numbered)
// is read whole, as is one whose head changed.
func TestDeriveJavaMembers(t *testing.T) {
	class := func(head, body string) string { return "package p;\n\n" + head + " {\n" + body + "}\n" }
	a := "  int a() {\n    return 1;\n  }\n\n"
	a2 := "  int a() {\n    int x = 2;\n    return x;\n  }\n\n"
	bm := "  /** B. */\n  void b(int n) {\n    n++;\n  }\n\n"
	anon := "  Runnable r() {\n    return new Runnable() {\n      public void run() {}\n    };\n  }\n\n"
	cases := []struct {
		name, pre, post string
		members         bool // derived from the members read with the class's head and foot
	}{
		{"a method's body", class("class C", a+bm), class("class C", a2+bm), true},
		{"a method added last", class("class C", a), class("class C", a+bm), true},
		{"a method deleted first", class("class C", a+bm), class("class C", bm), true},
		{"a field and a doc comment", class("class C", "  int f;\n\n"+bm), class("class C", "  int f = 3;\n\n  /** Bee. */\n  void b(int n) {\n    n++;\n  }\n\n"), true},
		{"the head", class("class C", a+bm), class("class C extends D", a+bm), false},
		{"beside an anonymous class", class("class C", anon+a+anon), class("class C", anon+a2+anon), false},
		{"an anonymous class added", class("class C", a+anon), class("class C", anon+a+anon), false},
		{"the second of two classes", class("class C", a) + class("class E", a+bm), class("class C", a) + class("class E", a2+bm), true},
	}
	l := lang.ForPath("C.java")
	if l == nil {
		t.Fatal("no language reads .java files")
	}
	for _, c := range cases {
		if members := checkDerived(t, l, "C.java", c.name, c.pre, c.post); members != c.members {
			t.Errorf("%s: read with members alone %v, want %v", c.name, members, c.members)
		}
	}
}

// TestDeriveTypeScriptMembers: as TestDeriveJavaMembers for TypeScript
// classes and interfaces. A class whose methods make properties
// (`this.x = ...`, lying inside a method's lines) or whose members share a
// name (overloads: lang.MemberBodyChecker) is read whole.
func TestDeriveTypeScriptMembers(t *testing.T) {
	class := func(head, body string) string { return head + " {\n" + body + "}\n" }
	a := "  a(): number {\n    return 1;\n  }\n\n"
	a2 := "  a(): number {\n    const x = 2;\n    return x;\n  }\n\n"
	field := "  f = 1;\n\n"
	ctor := "  constructor() {\n    this.f = 2;\n    this.g = 3;\n  }\n\n"
	over := "  o(x: string): void;\n  o(x: number): void;\n  o(x: any) {}\n\n"
	cases := []struct {
		name, pre, post string
		members         bool
	}{
		{"a method's body", class("export class C", field+a), class("export class C", field+a2), true},
		{"a method added last", class("class C", a), class("class C", a+"  b(): void {}\n\n"), true},
		{"a constructor that makes properties", class("class C", field+ctor+a), class("class C", field+ctor+a2), false},
		{"overloads", class("class C", over+a), class("class C", over+a2), false},
		{"an interface member", class("export interface I", "  x: number;\n\n  y(): string;\n\n"), class("export interface I", "  x: string;\n\n  y(): string;\n\n"), true},
	}
	l := lang.ForPath("c.ts")
	for _, c := range cases {
		if members := checkDerived(t, l, "c.ts", c.name, c.pre, c.post); members != c.members {
			t.Errorf("%s: read with members alone %v, want %v", c.name, members, c.members)
		}
	}
}

// checkDerived derives pre from post in language l and requires what
// reading pre whole gives: symbols, the lines they own, units. It reports
// whether the change was read with members alone: inside a container
// whose symbols are all named under the members holding them, and none
// of them numbered (lang.Numbered).
func checkDerived(t *testing.T, l lang.Language, path, name, pre, post string) bool {
	t.Helper()
	b := newBlobParser(false)
	defer b.close()
	pt, err := b.parse(l, path, []byte(post))
	if err != nil {
		t.Fatal(err)
	}
	want, err := b.parse(l, path, []byte(pre))
	if err != nil {
		t.Fatal(err)
	}
	hunks := lineHunks([]byte(pre), []byte(post))
	got, ok, err := b.derive(l, path, []byte(pre), pt, hunks)
	if err != nil || !ok {
		t.Fatalf("%s: not derived (%v)", name, err)
	}
	if !reflect.DeepEqual(got.syms, want.syms) || !reflect.DeepEqual(got.runs, want.runs) || !reflect.DeepEqual(got.units, want.units) {
		t.Errorf("%s: derived\n%+v\n%+v\nread whole\n%+v\n%+v", name, got.syms, got.units, want.syms, want.units)
	}
	_, kept, _ := changedRegions(pt, pt.units, containers(pt.units), hunks, want.lines)
	numbered, _ := l.(lang.Numbered)
	return len(kept) > 0 && namedUnder(pt.syms, func(fileSymbol) bool { return true }) &&
		!slices.ContainsFunc(pt.syms, func(s fileSymbol) bool { return numbered != nil && numbered.NumberedName(s.name) })
}
