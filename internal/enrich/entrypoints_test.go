package enrich

import (
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

func TestLeadingAnnotations(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"@app.route(\"/x\", methods=[\"POST\"])\ndef create():\n    pass", []string{"app.route"}},
		{"@login_required\n@app.get('/a(b)')\nasync def a(): ...", []string{"login_required", "app.get"}},
		{"@PostMapping(\"/orders\")\n    public String place(String id) {", []string{"PostMapping"}},
		{"public @ResponseBody String x() {", []string{"ResponseBody"}},
		{"@Override public void run() {}", []string{"Override"}},
		{"def plain():\n    x = '@not'\n", nil},
		{"public static void main(String[] args) {}", nil},
		{"@", nil},
	}
	for _, c := range cases {
		if got := leadingAnnotations(c.src); !reflect.DeepEqual(got, c.want) {
			t.Errorf("leadingAnnotations(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestHandlerSignature(t *testing.T) {
	cases := []struct {
		lang, sig, file string
		want            bool
	}{
		{"go", "func PlaceOrder(w http.ResponseWriter, r *http.Request)", "a.go", true},
		{"go", "func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request)", "a.go", true},
		{"go", "func runServe(cmd *cobra.Command, args []string) error", "a.go", true},
		{"go", "func list(c *gin.Context)", "a.go", true},
		{"go", "func Write(w io.Writer, r *Request)", "a.go", false},
		{"javascript", "function getUsers(req, res)", "a.js", true},
		{"typescript", "async function h(req: Request, res: Response, next: NextFunction): Promise<void>", "a.ts", true},
		{"javascript", "function mw(ctx, next)", "a.js", true},
		{"javascript", "function add(a, b)", "a.js", false},
		{"python", "def index(request, slug=None)", "shop/views.py", true},
		{"python", "def index(request)", "shop/models.py", false},
		{"python", "def detail(self, request, pk)", "shop/views/orders.py", true},
		{"python", "def detail(request)", "shop/reviews/orders.py", false},
	}
	for _, c := range cases {
		n := &graph.Node{Language: c.lang, Signature: c.sig, FilePath: c.file}
		if got := handlerSignature(n); got != c.want {
			t.Errorf("handlerSignature(%s %q) = %v, want %v", c.lang, c.sig, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		name        string
		test, event bool
	}{
		{"TestPlace", true, false}, {"Testify", false, false}, {"BenchmarkX", true, false}, {"test_orders", true, false},
		{"onMessage", false, true}, {"on_message", false, true}, {"once", false, false}, {"handleRequest", false, true},
		{"consumeQueue", false, true}, {"Example", true, false},
	} {
		if got := isTestName(c.name); got != c.test {
			t.Errorf("isTestName(%q) = %v", c.name, got)
		}
		if got := eventName(c.name); got != c.event {
			t.Errorf("eventName(%q) = %v", c.name, got)
		}
	}
	if got := nameWords("getHTTPServerByID2_x"); !reflect.DeepEqual(got, []string{"get", "http", "server", "by", "id", "x"}) {
		t.Errorf("nameWords = %q", got)
	}
}

func TestLabels(t *testing.T) {
	for dir, want := range map[string]string{
		"src/main/java/com/acme/orders": "orders", "internal/pkg/utils": "", ".": "", "net/http": "http", "lib/src": "",
		"app/[[...slug]]": "slug", "pkg/a/x": "", "pkg/xy/_": "xy", "docs/llms.txt": "llms.txt", "api/v1": "api", "httpx/_transports": "transports",
	} {
		if got := folderLabel(dir); got != want {
			t.Errorf("folderLabel(%q) = %q, want %q", dir, got, want)
		}
	}
	ls := []communityLabel{
		{base: "http", keywords: []string{"server", "conn"}},
		{base: "http", keywords: []string{"cookie"}},
		{base: "http", keywords: []string{"cookie"}},
		{base: "http", keywords: nil},
		{base: "http (cookie)"},
	}
	disambiguate(ls, map[string]bool{})
	var got []string
	for _, l := range ls {
		got = append(got, l.label)
	}
	want := []string{"http", "http (cookie)", "http 2", "http 3", "http (cookie) 2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("disambiguate: %q, want %q", got, want)
	}
}

func TestAutoResolution(t *testing.T) {
	for m, want := range map[int]float64{10: 1, 1000: 1, 10000: 1.5, 100000: 2, 5000000: 2} {
		if got := autoResolution(m); got != want {
			t.Errorf("autoResolution(%d) = %v, want %v", m, got, want)
		}
	}
}

// FuzzSourceHeads feeds arbitrary source heads and signatures to the
// readers of annotations and parameters: they must not panic, and every
// annotation they return is a dotted name.
func FuzzSourceHeads(f *testing.F) {
	for _, s := range []string{"@app.route(\"/x\")\ndef f(): pass", "public @A(b=(1)) @B static void m(int a, String[] b)",
		"@", "@(", "((((", "def f(a: dict[str, (int, int)], *b, **c) -> None:", "func f(w http.ResponseWriter, r *http.Request)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range leadingAnnotations(s) {
			if a == "" || strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
				t.Fatalf("annotation %q from %q", a, s)
			}
		}
		for _, p := range paramNames(s) {
			if p == "" {
				t.Fatalf("empty parameter name from %q", s)
			}
		}
	})
}
