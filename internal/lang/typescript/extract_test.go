package typescript

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

const symbolsSource = `/**
 * Greets people.
 *
 * Longer text.
 * @param name who
 */
export function greet(name: string): string { return name; }

// A line comment is not documentation.
const helper = (a: number, b = 2, ...rest: number[]) => a;

export const MAX_SIZE = 10;
export let counter: number = 0;

/** A service. */
@Injectable()
export abstract class Service<T extends Base> extends Base implements Runner {
  private cache = new Map<string, T>();
  constructor(private readonly repo: Repo, public name?: string) { super(); }
  /** Runs. */
  @Get() run(): void {}
  static create(): Service<any> { return null as any; }
  protected abstract size(): number;
  get count(): number { return 0; }
  handler = async (e: Event) => {};
}

export interface Runner { run(): void; readonly id: string; }
export type Id = string | number;
export enum Color { Red }
`

func TestSymbols(t *testing.T) {
	ex, err := TypeScript.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.Extract("src/a.ts", []byte(symbolsSource))
	if err != nil {
		t.Fatal(err)
	}
	byQual := map[string]*lang.Symbol{}
	for i := range f.Symbols {
		byQual[f.Symbols[i].Qual] = &f.Symbols[i]
	}
	for _, tc := range []struct {
		qual      string
		kind      graph.NodeKind
		signature string
		doc       string
		exported  bool
		check     func(*lang.Symbol) bool
	}{
		{"greet", graph.KindFunction, "export function greet(name: string): string", "Greets people.", true,
			func(s *lang.Symbol) bool {
				return len(s.Params) == 1 && s.Params[0].Type == "string" && s.Returns[0] == "string"
			}},
		{"helper", graph.KindFunction, "const helper = (a: number, b = 2, ...rest: number[])", "", false,
			func(s *lang.Symbol) bool {
				return len(s.Params) == 3 && s.Params[1].Optional && s.Params[2].Variadic && lang.Accepts(s, 1)
			}},
		{"MAX_SIZE", graph.KindConst, "const MAX_SIZE = 10", "", true, nil},
		{"counter", graph.KindVariable, "let counter: number = 0", "", true,
			func(s *lang.Symbol) bool { return s.Type == "number" }},
		{"Service", graph.KindClass, "export abstract class Service<T extends Base> extends Base implements Runner", "A service.", true,
			func(s *lang.Symbol) bool {
				return s.Abstract && len(s.Bases) == 2 && s.Bases[1].Kind == lang.BaseImplements &&
					len(s.TypeParams) == 1 && s.TypeParams[0].Type == "Base" && len(s.Decorators) == 1
			}},
		{"Service.cache", graph.KindProperty, "private cache = new Map<string, T>()", "", false,
			func(s *lang.Symbol) bool { return s.Value != nil && s.Value.Kind == lang.ExprNew }},
		{"Service.constructor", graph.KindConstructor, "constructor(private readonly repo: Repo, public name?: string)", "", true, nil},
		{"Service.repo", graph.KindProperty, "private readonly repo: Repo", "", false,
			func(s *lang.Symbol) bool { return s.Type == "Repo" }},
		{"Service.name", graph.KindProperty, "public name?: string", "", true, nil},
		{"Service.run", graph.KindMethod, "run(): void", "Runs.", true,
			func(s *lang.Symbol) bool { return len(s.Decorators) == 1 && s.Decorators[0] == "Get" }},
		{"Service.create", graph.KindMethod, "static create(): Service<any>", "", true,
			func(s *lang.Symbol) bool { return s.Static }},
		{"Service.size", graph.KindMethod, "protected abstract size(): number", "", true,
			func(s *lang.Symbol) bool { return s.Abstract }},
		{"Service.count", graph.KindMethod, "get count(): number", "", true,
			func(s *lang.Symbol) bool { return s.Getter }},
		{"Service.handler", graph.KindFunction, "handler = async (e: Event)", "", true, nil},
		{"Runner", graph.KindInterface, "export interface Runner", "", true, nil},
		{"Runner.run", graph.KindMethod, "run(): void", "", true,
			func(s *lang.Symbol) bool { return s.Abstract }},
		{"Runner.id", graph.KindProperty, "readonly id: string", "", true, nil},
		{"Id", graph.KindTypeAlias, "export type Id = string | number", "", true,
			func(s *lang.Symbol) bool { return s.Type == "string | number" }},
		{"Color", graph.KindEnum, "export enum Color", "", true, nil},
	} {
		s := byQual[tc.qual]
		if s == nil {
			t.Errorf("%s: no symbol", tc.qual)
			continue
		}
		if s.Kind != tc.kind || s.Signature != tc.signature || s.Doc != tc.doc || s.Exported != tc.exported {
			t.Errorf("%s: got %s %q doc %q exported %v; want %s %q doc %q exported %v", tc.qual,
				s.Kind, s.Signature, s.Doc, s.Exported, tc.kind, tc.signature, tc.doc, tc.exported)
		}
		if tc.check != nil && !tc.check(s) {
			t.Errorf("%s: details wrong: %+v", tc.qual, *s)
		}
	}
	if len(f.Symbols) != 19 {
		for _, s := range f.Symbols {
			t.Log(s.Kind, s.Qual)
		}
		t.Errorf("%d symbols, want 19", len(f.Symbols))
	}
}
