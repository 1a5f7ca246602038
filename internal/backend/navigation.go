package backend

import (
	"context"
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/format"
	"gitnexus.dev/gitnexus/internal/graph"
)

// The navigation tools: find_symbol, get_callers_of, get_callees_of and
// get_module_dependencies. Each answers one question from exact inputs and
// lists candidates rather than guess which symbol a name means.

func callTreeParams() []Param {
	return []Param{
		{Name: "name", Type: TypeString, Description: "Symbol name: a simple name, Type.method, a qualified name, or a file path.", Aliases: []string{"symbol", "symbol_name"}},
		{Name: "uid", Type: TypeString, Description: "Exact symbol id from an earlier result (no ambiguity).", Aliases: []string{"symbol_uid"}},
		{Name: "file_path", Type: TypeString, Description: "File (or path suffix) the symbol is in, to disambiguate name.", Aliases: []string{"file"}},
		{Name: "kind", Type: TypeString, Description: "Kind to disambiguate name: Function, Method, Constructor, ..."},
		{Name: "depth", Type: TypeInteger, Description: "Levels to follow: 1 = direct, at most 5.", Default: analysis.DefaultCallDepth, Min: num(1), Max: num(analysis.MaxCallDepth), Aliases: []string{"maxDepth", "max_depth"}},
		{Name: "minConfidence", Type: TypeNumber, Description: "Ignore edges below this confidence.", Default: 0.0, Min: num(0), Max: num(1), Aliases: []string{"min_confidence"}},
		repoParam,
	}
}

// symbolKind checks a kind argument: empty, or the name of a symbol kind
// (any case).
func symbolKind(param, s string) (graph.NodeKind, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return graph.KindInvalid, nil
	}
	var names []string
	for _, k := range graph.AllKinds() {
		if !k.IsSymbol() {
			continue
		}
		if strings.EqualFold(k.String(), s) {
			return k, nil
		}
		names = append(names, k.String())
	}
	return graph.KindInvalid, &ArgError{Param: param, Msg: fmt.Sprintf("unknown kind %q (kinds: %s)", s, strings.Join(names, ", "))}
}

func runFindSymbol(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	name := strings.TrimSpace(a.String("name"))
	if name == "" {
		return nil, &ArgError{Param: "name", Msg: "is empty"}
	}
	kind, err := symbolKind("kind", a.String("kind"))
	if err != nil {
		return nil, err
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		res := analysis.Definitions(s.Graph, analysis.DefinitionsOptions{Name: name, Kind: kind, File: a.String("file_path")})
		if res.Total == 0 {
			filters := ""
			if a.String("kind") != "" || a.String("file_path") != "" {
				filters = fmt.Sprintf(" (with kind %q, file_path %q)", a.String("kind"), a.String("file_path"))
			}
			return nil, &NotFoundError{What: fmt.Sprintf("no symbol named %q%s in %s: %s", name, filters, s.Repo.ID, missAdvice(s, name))}
		}
		h := hint(call("get_callers_of", "uid", res.Definitions[0].UID), ", or ", call("context", "uid", res.Definitions[0].UID), " for everything linked to it.")
		if res.Total > 1 {
			h = hint(call("get_callers_of"), " or ", call("context"), " with ", param("uid"), " set to the one you mean.")
		}
		if res.Truncated {
			h = hint("narrow with ", param("kind"), " or ", param("file_path"), " to see the rest.")
		}
		return &Result{Data: res, Text: format.Definitions(&res), Hint: h}, nil
	})
}

func runCallTree(callers bool) func(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	return func(ctx context.Context, b *Backend, a *Args) (*Result, error) {
		return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
			n, amb, err := lookup(s, a, "uid", "name")
			if err != nil || amb != nil {
				return amb, err
			}
			res := analysis.CallTree(s.Graph, n, analysis.CallTreeOptions{Callers: callers, Depth: a.Int("depth"),
				MinConfidence: float32(a.Float("minConfidence"))})
			tool := "get_callers_of"
			if !callers {
				tool = "get_callees_of"
			}
			var h Hint
			switch {
			case res.Truncated:
				h = hint(fmt.Sprintf("the answer is cut at %d: ask with a smaller ", analysis.MaxNavResults), param("depth"), ", or ", call(tool), " on one of the listed symbols.")
			case res.Total == 0 && callers:
				h = hint("no other symbol in the repository calls it: it may be an entry point, called from outside the repository, or only referenced; try ", call("context"), ".")
			case res.Total == 0:
				h = hint("it calls no other symbol in the repository; try ", call("context"), " for its other relations.")
			case res.Depth < analysis.MaxCallDepth && len(res.Levels) == res.Depth:
				h = hint(again(tool, "depth", res.Depth+1), " to go one level further, or ", call("impact"), " for the blast radius.")
			default:
				h = hint(call("context"), " on a listed symbol for its other relations.")
			}
			return &Result{Data: res, Text: format.CallTree(&res), Hint: h}, nil
		})
	}
}

func runModuleDependencies(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	module := strings.TrimSpace(a.String("module"))
	if module == "" {
		return nil, &ArgError{Param: "module", Msg: "is empty"}
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		res, err := analysis.ModuleDependencies(s.Graph, module)
		if err != nil {
			return nil, err
		}
		h := hint(call("get_module_dependencies"), " on a listed module to follow the architecture, or ", call("find_symbol"), " for a symbol in it.")
		if res.Truncated {
			h = hint(fmt.Sprintf("the lists are cut at %d modules; the most linked are shown.", analysis.MaxNavResults))
		}
		return &Result{Data: res, Text: format.ModuleDeps(&res), Hint: h}, nil
	})
}

func runTrace(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		from, amb, err := lookupBy(s, a, "from_uid", "from", "from_file", "")
		if err != nil || amb != nil {
			return amb, err
		}
		to, amb, err := lookupBy(s, a, "to_uid", "to", "to_file", "")
		if err != nil || amb != nil {
			return amb, err
		}
		res := analysis.Trace(s.Graph, from, to, a.Int("max_depth"), a.Int("limit"))
		var h Hint
		switch {
		case len(res.Paths) == 0 && res.Reverse > 0:
			h = hint(call("trace", "from_uid", res.To.UID, "to_uid", res.From.UID), " for the paths the other way.")
		case len(res.Paths) == 0:
			h = hint(call("get_callers_of", "uid", res.To.UID), " to see what does reach it, or ", call("context"),
				" for relations other than calls.")
		case res.More:
			h = hint("more paths: raise ", param("limit"), ".")
		default:
			h = hint(call("impact", "target_uid", res.To.UID), " for everything that reaches it.")
		}
		return &Result{Data: res, Text: format.Trace(&res), Hint: h}, nil
	})
}
