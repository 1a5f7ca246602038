package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpServer starts `gitnexus mcp` in dir with home as GITNEXUS_HOME and
// connects the Go SDK's client to it over stdio.
type mcpServer struct {
	cmd     *exec.Cmd
	session *mcp.ClientSession
	stderr  *bytes.Buffer
}

func startMCP(t *testing.T, home, dir string, args ...string) *mcpServer {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	s := &mcpServer{cmd: cmd, session: session, stderr: &stderr}
	t.Cleanup(func() { s.session.Close() })
	return s
}

// call calls a tool and returns its result; protocol errors fail the test.
func (s *mcpServer) call(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: %v", name, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structured content.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return m
}

func TestMCPOverStdio(t *testing.T) {
	home := t.TempDir()
	// Two repositories with the same folder name.
	a := filepath.Join(t.TempDir(), "shop")
	b := filepath.Join(t.TempDir(), "shop")
	for _, root := range []string{a, b} {
		writeFiles(t, root, shop)
		git(t, root, "init", "-q", "-b", "main")
		git(t, root, "add", "-A")
		git(t, root, "commit", "-q", "-m", "initial")
		mustRun(t, home, root, "analyze", "-q")
	}
	var list []struct{ ID, Path string }
	if err := json.Unmarshal([]byte(mustRun(t, home, a, "list", "--json").stdout), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID == list[1].ID {
		t.Fatalf("registry: %+v", list)
	}
	ids := map[string]string{}
	for _, e := range list {
		ids[e.Path] = e.ID
	}
	idA, idB := ids[a], ids[b]

	s := startMCP(t, home, t.TempDir()) // a directory outside both
	ctx := context.Background()

	t.Run("initialize", func(t *testing.T) {
		init := s.session.InitializeResult()
		if init.ServerInfo.Name != "gitnexus" || init.Instructions == "" || init.Capabilities.Tools == nil ||
			init.Capabilities.Resources == nil || init.Capabilities.Prompts == nil {
			t.Errorf("initialize result: %+v", init)
		}
	})

	t.Run("tools/list", func(t *testing.T) {
		tools, err := s.session.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
			ann := tool.Annotations
			if ann == nil || ann.DestructiveHint == nil {
				t.Errorf("%s has no annotations", tool.Name)
				continue
			}
			if ro := tool.Name != "rename"; ann.ReadOnlyHint != ro || *ann.DestructiveHint == ro {
				t.Errorf("%s: readOnly %v destructive %v", tool.Name, ann.ReadOnlyHint, *ann.DestructiveHint)
			}
			schema, _ := json.Marshal(tool.InputSchema)
			if !strings.Contains(string(schema), `"type":"object"`) {
				t.Errorf("%s input schema: %s", tool.Name, schema)
			}
		}
		want := []string{"context", "cypher", "detect_changes", "find_symbol", "get_callees_of", "get_callers_of",
			"get_commit_impact", "get_file_history", "get_module_dependencies", "get_recent_changes", "get_symbol_history",
			"impact", "list_repos", "overview", "query", "rename", "search_commits", "trace"}
		if !slices.Equal(names, want) {
			t.Errorf("tools = %v, want %v", names, want)
		}
	})

	t.Run("tools", func(t *testing.T) {
		cases := []struct {
			tool    string
			args    map[string]any
			isError bool
			in      []string // in the text
		}{
			{"list_repos", nil, false, []string{idA, idB, a, b}},
			{"overview", nil, true, []string{`Multiple repositories indexed. Specify which one with the "repo" parameter: ` + strings.Join(sorted(idA, idB), ", ")}},
			{"overview", map[string]any{"repo": idB}, false, []string{"Repository " + idB, "example.com/shop"}},
			{"overview", map[string]any{"repo": "nope"}, true, []string{`Repository "nope" not found. Available: `}},
			{"query", map[string]any{"query": "charge payment", "repo": idA}, false, []string{"payment/payment.go", "Charge"}},
			{"search", map[string]any{"query": "charge", "repo": idA}, false, []string{"Charge"}},
			{"query", map[string]any{"repo": idA}, true, []string{`"query"`}},
			{"context", map[string]any{"name": "Client.Charge", "repo": idA}, false, []string{"payment/payment.go:7", "Service.Place", "order/order.go:12", "validate"}},
			{"explore", map[string]any{"name": "Charge", "repo": b}, false, []string{"Method `payment.Client.Charge`"}},
			{"context", map[string]any{"name": "Nowhere", "repo": idA}, true, []string{"no symbol"}},
			{"context", map[string]any{"name": 42, "repo": idA}, true, []string{"must be a string"}},
			{"impact", map[string]any{"target": "validate", "repo": idA}, false, []string{"risk **", "Depth 1", "Client.Charge", "Depth 2", "Service.Place"}},
			{"impact", map[string]any{"target": "validate", "repo": idA, "maxDepth": 1}, false, []string{"Depth 1"}},
			{"impact", map[string]any{"target": "validate", "repo": idA, "maxDepth": 0}, true, []string{"at least 1"}},
			{"impact", map[string]any{"target": "validate", "repo": idA, "direction": "up"}, true, []string{"upstream, downstream"}},
			{"detect_changes", map[string]any{"repo": idA}, false, []string{"0 symbol(s) changed"}},
			{"detect_changes", map[string]any{"repo": idA, "scope": "compare"}, true, []string{"base_ref"}},
			{"rename", map[string]any{"symbol_name": "validate", "new_name": "check", "repo": idA}, false, []string{"Planned (dry run)", "payment/payment.go:"}},
			{"rename", map[string]any{"symbol_name": "validate", "new_name": "not valid", "repo": idA}, true, []string{"not an identifier"}},
			{"cypher", map[string]any{"query": "MATCH (c)-[:CALLS]->(f:Function {name: $name}) RETURN c.qualifiedName AS caller", "params": map[string]any{"name": "validate"}, "repo": idA}, false, []string{"payment.Client.Charge"}},
			{"cypher", map[string]any{"query": "MATCH (n) RETURN n LIMIT", "repo": idA}, true, []string{"the query failed", "/schema"}},
			{"cypher", map[string]any{"query": "CREATE (n:Function)", "repo": idA}, true, []string{"read-only"}},
			{"find_symbol", map[string]any{"name": "Charge", "repo": idA}, false, []string{"Method `payment.Client.Charge` is defined at `payment/payment.go:7` in `example.com/shop/payment`"}},
			{"find_symbol", map[string]any{"name": "Charge", "kind": "Gadget", "repo": idA}, true, []string{`unknown kind "Gadget"`}},
			{"get_callers_of", map[string]any{"name": "validate", "depth": 2, "repo": idA}, false, []string{
				"called directly from: `Client.Charge` (`payment/payment.go:7`)", "At depth 2 (callers of those): `Service.Place` (`order/order.go:13`)",
				"By module: example.com/shop/order [area order] (Service.Place); example.com/shop/payment [area payment] (Client.Charge)."}},
			{"get_callers_of", map[string]any{"name": "validate", "depth": 6, "repo": idA}, true, []string{"must be at most 5"}},
			{"get_callees_of", map[string]any{"name": "Service.Place", "repo": idA}, false, []string{"calls directly: `record` (`order/order.go:16`), `Client.Charge` (`order/order.go:13`)"}},
			{"get_module_dependencies", map[string]any{"module": "example.com/shop/payment", "repo": idA}, false, []string{"- `example.com/shop/order`: 1 import, 1 call"}},
			{"get_module_dependencies", map[string]any{"module": "paymnt", "repo": idA}, true, []string{"close matches: payment, example.com/shop/payment"}},
		}
		for _, c := range cases {
			res := s.call(t, c.tool, c.args)
			got := text(res)
			if res.IsError != c.isError {
				t.Errorf("%s %v: isError = %v, want %v:\n%s", c.tool, c.args, res.IsError, c.isError, got)
			}
			for _, w := range c.in {
				if !strings.Contains(got, w) {
					t.Errorf("%s %v: the answer does not contain %q:\n%s", c.tool, c.args, w, got)
				}
			}
			if !c.isError && res.StructuredContent == nil {
				t.Errorf("%s: no structured content", c.tool)
			}
		}
		// A name no tool has is a protocol error, not a failed tool.
		if _, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("unknown tool: %v", err)
		}
		// Structured content carries the same answer as the text.
		ctxRes := structured(t, s.call(t, "context", map[string]any{"name": "Client.Charge", "repo": idA}))
		if sym, _ := ctxRes["symbol"].(map[string]any); sym["uid"] != "Method:payment/payment.go:Client.Charge" {
			t.Errorf("structured context: %v", ctxRes)
		}
	})

	t.Run("resources", func(t *testing.T) {
		res, err := s.session.ListResources(ctx, nil)
		if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != "gitnexus://repos" {
			t.Fatalf("resources: %+v %v", res, err)
		}
		tmpl, err := s.session.ListResourceTemplates(ctx, nil)
		if err != nil || len(tmpl.ResourceTemplates) == 0 {
			t.Fatalf("templates: %+v %v", tmpl, err)
		}
		repos, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gitnexus://repos"})
		if err != nil || !strings.Contains(repos.Contents[0].Text, idA) || !strings.Contains(repos.Contents[0].Text, idB) {
			t.Errorf("gitnexus://repos: %+v %v", repos, err)
		}
		rc, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gitnexus://repo/" + idB + "/context"})
		if err != nil || !strings.Contains(rc.Contents[0].Text, b) {
			t.Errorf("repo context: %+v %v", rc, err)
		}
		schema, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gitnexus://repo/" + idA + "/schema"})
		if err != nil || !strings.Contains(schema.Contents[0].Text, "CALLS") || !strings.Contains(schema.Contents[0].Text, "MATCH") {
			t.Errorf("schema: %+v %v", schema, err)
		}
		if _, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gitnexus://repo/nope/context"}); err == nil {
			t.Error("context of an unknown repository: no error")
		}
		// Communities and execution flows of the shop.
		for _, c := range []struct{ uri, want string }{
			{"gitnexus://repo/" + idB + "/clusters", "| order |"},
			{"gitnexus://repo/" + idB + "/cluster/order", "order.Service.Place"},
			{"gitnexus://repo/" + idB + "/processes", "| main → validate | 4 | cross_community |"},
			{"gitnexus://repo/" + idB + "/process/" + url.PathEscape("main → validate"),
				"| 1 | main.main | Function | cmd/shop/main.go:"},
			{"gitnexus://repo/" + idB + "/process/" + url.PathEscape("main → validate"), "flowchart TD\n  s1[\"1. main.main\"]"},
			{"gitnexus://repo/" + idB + "/process/" + url.PathEscape("main → validate"), "  s3 --> s4\n```"},
		} {
			r, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.uri})
			if err != nil || !strings.Contains(r.Contents[0].Text, c.want) {
				t.Errorf("%s: want %q in %v %v", c.uri, c.want, resourceText(r), err)
			}
		}
		if _, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gitnexus://repo/" + idB + "/process/nope"}); err == nil ||
			!strings.Contains(err.Error(), "no process") {
			t.Errorf("an unknown process: %v", err)
		}
	})

	t.Run("prompts", func(t *testing.T) {
		ps, err := s.session.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range ps.Prompts {
			names = append(names, p.Name)
		}
		if !slices.Equal(names, []string{"detect_impact", "generate_map"}) {
			t.Errorf("prompts = %v", names)
		}
		p, err := s.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "detect_impact", Arguments: map[string]string{"scope": "compare", "base_ref": "main", "repo": idA}})
		if err != nil || len(p.Messages) == 0 {
			t.Fatalf("detect_impact: %+v %v", p, err)
		}
		if msg := p.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(msg, `base_ref "main"`) || !strings.Contains(msg, idA) {
			t.Errorf("detect_impact message: %s", msg)
		}
		if _, err := s.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "generate_map"}); err != nil {
			t.Errorf("generate_map: %v", err)
		}
	})

	t.Run("repository indexed while the server runs", func(t *testing.T) {
		third := newRepo(t, "third", map[string]string{"go.mod": "module example.com/third\n\ngo 1.22\n", "t.go": "package third\n\n// Hello greets.\nfunc Hello() string { return greet() }\n\nfunc greet() string { return \"hi\" }\n"})
		mustRun(t, home, third, "analyze", "-q")
		res := s.call(t, "context", map[string]any{"name": "greet", "repo": "third"})
		if res.IsError || !strings.Contains(text(res), "Hello") {
			t.Errorf("third repository: %s", text(res))
		}
	})

	t.Run("re-indexed while calls are in flight", func(t *testing.T) {
		var wg sync.WaitGroup
		stop := make(chan struct{})
		failures := make(chan string, 64)
		for w := 0; w < 3; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: "impact", Arguments: map[string]any{"target": "validate", "repo": idA}})
					if err != nil {
						failures <- err.Error()
						return
					}
					if res.IsError {
						failures <- text(res)
						return
					}
				}
			}()
		}
		// Change the code and re-index twice while the calls run.
		writeFiles(t, a, map[string]string{"payment/extra.go": "package payment\n\n// Refund pays back.\nfunc (c *Client) Refund(amount int) error { return validate(-amount) }\n"})
		mustRun(t, home, a, "analyze", "-q")
		mustRun(t, home, a, "analyze", "-q", "--force")
		close(stop)
		wg.Wait()
		close(failures)
		for f := range failures {
			t.Errorf("a call failed during re-indexing: %s", f)
		}
		res := s.call(t, "impact", map[string]any{"target": "validate", "repo": idA, "maxDepth": 1})
		if !strings.Contains(text(res), "Client.Refund") {
			t.Errorf("after re-indexing, impact does not see Refund:\n%s", text(res))
		}
	})

	if err := s.session.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if st := s.cmd.ProcessState; st == nil || st.ExitCode() != 0 {
		t.Errorf("server exit after stdin closed: %v\nstderr: %s", st, s.stderr.String())
	}
	if s.stderr.Len() != 0 {
		t.Errorf("the server wrote to stderr:\n%s", s.stderr.String())
	}
}

func sorted(xs ...string) []string {
	slices.Sort(xs)
	return xs
}

// TestMCPBatchAndSignal: requests written before stdin closes are all
// answered, and SIGTERM stops the server cleanly.
// mcpLines runs `gitnexus mcp` in dir with the lines as its whole input
// and returns what it wrote; it must exit 0.
func mcpLines(t *testing.T, home, dir string, lines []string) *bytes.Buffer {
	t.Helper()
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp exited with %v\nstderr: %s", err, errb.String())
	}
	return &out
}

func TestMCPBatchAndSignal(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"batch","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"context","arguments":{"name":"validate"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"impact","arguments":{"target":"validate"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"impact","arguments":{"target":"main","direction":"downstream","limit":1}}}`,
	}
	out := mcpLines(t, home, root, lines)
	// Non-ASCII text ("Items 1–1 of 2") travels escaped: stdout is ASCII.
	if i := bytes.IndexFunc(out.Bytes(), func(r rune) bool { return r >= 0x80 }); i >= 0 {
		t.Errorf("stdout holds a non-ASCII character at byte %d: %q", i, out.Bytes()[max(0, i-40):i+10])
	}
	seen := map[float64]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     float64 `json:"id"`
			Result *struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &msg); err != nil {
			t.Fatalf("stdout holds something other than protocol: %q", l)
		}
		if msg.Result != nil {
			seen[msg.ID] = true
		}
		if msg.ID == 5 && (msg.Result == nil || len(msg.Result.Content) == 0 || !strings.Contains(msg.Result.Content[0].Text, "Items 1–1 of 2")) {
			t.Errorf("the paged impact answer does not decode to its text (Items 1–1 of 2): %s", l)
		}
	}
	for id := 1; id <= 5; id++ {
		if !seen[float64(id)] {
			t.Errorf("request %d was not answered:\n%s", id, out.String())
		}
	}

	// A signal while idle: a clean exit.
	srv := exec.Command(binary, "mcp")
	srv.Dir = root
	srv.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	stdin, err := srv.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		srv.Process.Kill()
		t.Fatal("the server did not stop on SIGTERM")
	}
}

// TestToolCommands drives the tools as CLI commands: the same answers as
// over MCP, --json for the structured result, usage errors exit 2.
func TestToolCommands(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	cases := []struct {
		args []string
		code int
		in   string // in stdout (or stderr for failures)
	}{
		{[]string{"context", "Client.Charge"}, 0, "Method `payment.Client.Charge` at payment/payment.go:7"},
		{[]string{"context", "--uid", "Function:payment/payment.go:validate", "--json"}, 0, `"uid": "Function:payment/payment.go:validate"`},
		{[]string{"impact", "validate", "--max-depth", "2"}, 0, "Depth 2"},
		{[]string{"impact", "validate", "--max-depth", "6"}, 2, "--max-depth: must be at most 5"},
		{[]string{"impact", "validate", "--relation-types", "CALLS,IMPORTS", "--json"}, 0, `"risk": "MEDIUM"`},
		{[]string{"query", "charge", "payment"}, 0, `Search "charge payment"`},
		{[]string{"query", "--query", "charge payment"}, 0, `Search "charge payment"`},
		{[]string{"query"}, 2, "--query: is required"},
		{[]string{"query", "charge", "--query", "payment"}, 2, "both as an argument and as --query"},
		{[]string{"detect-changes", "--scope", "staged"}, 0, "Changes (staged)"},
		{[]string{"detect-changes", "--scope", "compare"}, 1, "base_ref"},
		{[]string{"rename", "validate", "check"}, 0, "Planned (dry run)"},
		{[]string{"rename", "validate"}, 2, "--new-name: is required"},
		{[]string{"overview", "--json"}, 0, `"nodesByKind"`},
		{[]string{"context", "Nowhere"}, 1, "no symbol"},
		{[]string{"context", "Charge", "--name", "Charge"}, 2, "both as an argument and as --name"},
		{[]string{"find-symbol", "validate", "--json"}, 0, `"uid": "Function:payment/payment.go:validate"`},
		{[]string{"get-callers-of", "validate", "--depth", "2"}, 0, "At depth 2 (callers of those): `Service.Place` (`order/order.go:13`)"},
		{[]string{"get-callers-of", "validate", "--depth", "6"}, 2, "--depth: must be at most 5"},
		{[]string{"get-callees-of", "Client.Charge", "--json"}, 0, `"callLines": [`},
		{[]string{"get-module-dependencies", "order"}, 0, "Folder `order` (1 file): depends on 1 module, used by 1 module"},
		{[]string{"callers", "validate", "--depth", "3"}, 0, "called directly from: `Client.Charge` (`payment/payment.go:7`)"},
	}
	for _, c := range cases {
		r := run(t, home, root, c.args...)
		out := r.stdout
		if c.code != 0 {
			out = r.stderr
		}
		if r.code != c.code || !strings.Contains(out, c.in) {
			t.Errorf("gitnexus %s: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant %q", strings.Join(c.args, " "), r.code, c.code, r.stdout, r.stderr, c.in)
		}
	}
	// rename --dry-run=false changes the files, and the module still builds.
	mustRun(t, home, root, "rename", "validate", "check", "--dry-run=false")
	body, err := os.ReadFile(filepath.Join(root, "payment", "payment.go"))
	if err != nil || !strings.Contains(string(body), "return check(amount)") || !strings.Contains(string(body), "func check(amount int) error") {
		t.Errorf("after rename: %s %v", body, err)
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = root
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("the renamed module does not build: %v\n%s", err, out)
	}
}

// TestServe starts `gitnexus serve` on a free port, calls the REST API and
// MCP over HTTP, and stops it with SIGTERM; a public address without a
// token is refused.
func TestServe(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	if r := run(t, home, root, "serve", "--host", "0.0.0.0", "--port", "0"); r.code != 2 || !strings.Contains(r.stderr, "without a token") {
		t.Errorf("public address without a token: exit %d\n%s", r.code, r.stderr)
	}
	cmd := exec.Command(binary, "serve", "--port", "0", "--json-log")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var url string
	deadline := time.After(30 * time.Second)
	for url == "" {
		select {
		case l := <-lines:
			var rec struct{ Msg, URL string }
			if json.Unmarshal([]byte(l), &rec) == nil && rec.Msg == "listening" {
				url = rec.URL
			}
		case <-deadline:
			t.Fatal("the server did not say where it listens")
		}
	}
	resp, err := http.Post(url+"/api/v1/tools/context", "application/json", strings.NewReader(`{"name": "Client.Charge"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "payment/payment.go:7") {
		t.Errorf("context over REST: %d %s", resp.StatusCode, body)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url + "/api/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "impact", Arguments: map[string]any{"target": "validate"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "Client.Charge") {
		t.Errorf("impact over MCP/HTTP: %v %s", err, text(res))
	}
	session.Close()
	http.DefaultClient.CloseIdleConnections()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var logged []string
	for l := range lines {
		logged = append(logged, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v\n%s", err, strings.Join(logged, "\n"))
	}
	all := strings.Join(logged, "\n")
	if !strings.Contains(all, `"path":"/api/v1/tools/context"`) || !strings.Contains(all, `"msg":"stopped"`) {
		t.Errorf("access log:\n%s", all)
	}
}

func resourceText(r *mcp.ReadResourceResult) string {
	if r == nil || len(r.Contents) == 0 {
		return ""
	}
	return r.Contents[0].Text
}
