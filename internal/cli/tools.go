package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/backend"
)

// The agent tools as commands: each command is built from the backend's tool
// table, so flags, defaults and bounds are the MCP tool's own, and the
// command prints the same markdown (or, with --json, the same structured
// result) an agent receives.

// toolCommand says how one tool becomes a command: its name, other names
// (the tool's own, where the command is named shorter), the parameters
// taken as positional arguments, and usage examples.
type toolCommand struct {
	tool       string
	use        string
	aliases    []string
	positional []string
	// words: the one positional parameter takes every argument, joined
	// by spaces (the words of a search).
	words   bool
	example string
}

var toolCommands = []toolCommand{
	{tool: "query", use: "query <words>...", positional: []string{"query"}, words: true,
		example: "  gitnexus query \"parse config file\"\n  gitnexus query retry backoff --limit 10 --json"},
	{tool: "context", use: "context [<symbol>]", positional: []string{"name"},
		example: "  gitnexus context Server.Serve\n  gitnexus context ParseConfig --file-path internal/config --include-content\n  gitnexus context --uid 'Function:cmd/main.go:main'"},
	{tool: "impact", use: "impact [<symbol>]", positional: []string{"target"},
		example: "  gitnexus impact Server.Serve\n  gitnexus impact ParseConfig --direction downstream --max-depth 2 --json"},
	{tool: "detect_changes", use: "detect-changes", example: "  gitnexus detect-changes\n  gitnexus detect-changes --scope compare --base-ref main"},
	{tool: "rename", use: "rename [<symbol> <new-name>]", positional: []string{"symbol_name", "new_name"},
		example: "  gitnexus rename ParseConfig LoadConfig            # plan only\n  gitnexus rename ParseConfig LoadConfig --dry-run=false"},
	{tool: "find_symbol", use: "find-symbol <name>", positional: []string{"name"},
		example: "  gitnexus find-symbol Get\n  gitnexus find-symbol Store.Get --json\n  gitnexus find-symbol New --kind Function --file-path internal/store"},
	{tool: "get_callers_of", use: "callers [<symbol>]", aliases: []string{"get-callers-of"}, positional: []string{"name"},
		example: "  gitnexus callers Store.Get\n  gitnexus callers ParseConfig --depth 3 --json\n  gitnexus callers --uid 'Method:store/store.go:Store.Get' --min-confidence 0.8"},
	{tool: "get_callees_of", use: "callees [<symbol>]", aliases: []string{"get-callees-of"}, positional: []string{"name"},
		example: "  gitnexus callees Service.Place\n  gitnexus callees main --depth 2"},
	{tool: "get_module_dependencies", use: "get-module-dependencies <module>", positional: []string{"module"},
		example: "  gitnexus get-module-dependencies example.com/shop/order\n  gitnexus get-module-dependencies internal/store --json"},
	{tool: "trace", use: "trace [<from> <to>]", positional: []string{"from", "to"},
		example: "  gitnexus trace main Store.Get\n  gitnexus trace Server.Serve conn.readRequest --max-depth 3 --limit 10\n  gitnexus trace --from-uid 'Function:cmd/main.go:main' --to Get --to-file store/ --json"},
	{tool: "overview", use: "overview", example: "  gitnexus overview\n  gitnexus overview --repo myapp --json"},
	{tool: "get_file_history", use: "get-file-history <path>", positional: []string{"path"},
		example: "  gitnexus get-file-history internal/order/service.go\n  gitnexus get-file-history service.go --since 2024-01-01 --limit 50"},
	{tool: "get_symbol_history", use: "get-symbol-history [<symbol>]", positional: []string{"name"},
		example: "  gitnexus get-symbol-history Service.Place\n  gitnexus get-symbol-history Purge --include-source"},
	{tool: "get_recent_changes", use: "get-recent-changes",
		example: "  gitnexus get-recent-changes --since 2024-06-01\n  gitnexus get-recent-changes --range v1.2.0..v1.3.0\n  gitnexus get-recent-changes --branch feature/x --json"},
	{tool: "get_commit_impact", use: "get-commit-impact <hash>", positional: []string{"hash"},
		example: "  gitnexus get-commit-impact 1a2b3c4\n  gitnexus get-commit-impact 1a2b3c4 --json"},
	{tool: "search_commits", use: "search-commits <words>...", positional: []string{"query"}, words: true,
		example: "  gitnexus search-commits \"retry on timeout\"\n  gitnexus search-commits cache eviction --limit 5 --json"},
}

// flagName is the flag of a tool parameter (max_symbols → max-symbols).
func flagName(param string) string { return backend.FlagName(param) }

func newToolCmds(stdio *IO) []*cobra.Command {
	var out []*cobra.Command
	for _, tc := range toolCommands {
		out = append(out, newToolCmd(stdio, tc))
	}
	return out
}

func newToolCmd(stdio *IO, tc toolCommand) *cobra.Command {
	t, ok := backend.LookupTool(tc.tool)
	if !ok {
		panic("no tool " + tc.tool)
	}
	var asJSON bool
	cmd := &cobra.Command{
		Use:     tc.use,
		Aliases: tc.aliases,
		Short:   t.Title,
		Long:    t.Description + "\n\nThe same tool an agent calls over MCP as " + t.Name + "; flags are its parameters.",
		Example: tc.example,
		Args:    argsRange(0, len(tc.positional)),
	}
	if tc.words {
		cmd.Args = argsRange(0, 1<<20) // the words, or the parameter's flag
	}
	f := cmd.Flags()
	isPositional := map[string]bool{}
	for _, p := range tc.positional {
		isPositional[p] = true
	}
	// values of the flags, read back only when the user set them, so that
	// the tool's own defaults apply otherwise.
	get := map[string]func() any{}
	for i := range t.Params {
		p := &t.Params[i]
		name := flagName(p.Name)
		usage := p.Description
		switch p.Type {
		case backend.TypeString:
			def, _ := p.Default.(string)
			v := f.String(name, def, usage)
			get[name] = func() any { return *v }
		case backend.TypeInteger:
			def, _ := p.Default.(int)
			v := f.Int(name, def, usage)
			get[name] = func() any { return *v }
		case backend.TypeNumber:
			def, _ := p.Default.(float64)
			v := f.Float64(name, def, usage)
			get[name] = func() any { return *v }
		case backend.TypeBoolean:
			def, _ := p.Default.(bool)
			v := f.Bool(name, def, usage)
			get[name] = func() any { return *v }
		case backend.TypeArray:
			v := f.StringSlice(name, nil, usage+" (comma-separated)")
			get[name] = func() any {
				out := make([]any, len(*v))
				for i, s := range *v {
					out[i] = s
				}
				return out
			}
		case backend.TypeObject:
			v := f.String(name, "", usage+" (a JSON object)")
			get[name] = func() any {
				var m map[string]any
				if err := json.Unmarshal([]byte(*v), &m); err != nil {
					return *v // the backend reports the type error
				}
				return m
			}
		}
	}
	f.BoolVar(&asJSON, "json", false, "print the structured result as JSON")
	registerToolCompletions(stdio, cmd, t, tc.positional)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		callArgs := map[string]any{}
		for i := range t.Params {
			name := flagName(t.Params[i].Name)
			if f.Changed(name) {
				callArgs[t.Params[i].Name] = get[name]()
			}
		}
		if tc.words && len(args) > 0 {
			args = []string{strings.Join(args, " ")}
		}
		{
			for i, a := range args {
				p := tc.positional[i]
				if f.Changed(flagName(p)) {
					return usageError{fmt.Errorf("%s given both as an argument and as --%s", p, flagName(p))}
				}
				callArgs[p] = a
			}
		}
		return runTool(cmd.Context(), stdio, t.Name, callArgs, asJSON)
	}
	return cmd
}

// runTool calls one tool through a backend started for this command.
func runTool(ctx context.Context, stdio *IO, name string, args map[string]any, asJSON bool) error {
	cwd, err := stdio.Getwd()
	if err != nil {
		return err
	}
	b, err := backend.New(backend.Options{Cwd: cwd, IdleTimeout: -1, ToolVersion: Version()})
	if err != nil {
		return err
	}
	defer b.Close()
	res, err := b.CallTool(ctx, name, args)
	if err != nil {
		code := ExitError
		var ae *backend.ArgError
		if errors.As(err, &ae) {
			err, code = fmt.Errorf("--%s: %s", flagName(ae.Param), ae.Message(backend.ForCLI)), ExitUsage
		}
		if asJSON {
			// Scripts read one JSON value on stdout, answer or error.
			if werr := writeJSON(stdio.Out, map[string]string{"error": err.Error()}); werr != nil {
				return werr
			}
			return &exitError{code: code, err: err}
		}
		if code == ExitUsage {
			return usageError{err}
		}
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdio.Out)
		enc.SetIndent("", "  ")
		err = enc.Encode(res.Structured())
	} else {
		_, err = fmt.Fprint(stdio.Out, res.MarkdownFor(backend.ForCLI))
	}
	if err == nil && res.Ambiguous {
		// The answer lists the candidates; scripts tell by the status.
		return &exitError{code: ExitAmbiguous, err: fmt.Errorf("the name is ambiguous: it matches the candidates listed; name one by its uid as the answer says")}
	}
	return err
}
