package analysis

import "testing"

func TestLayerOf(t *testing.T) {
	for _, c := range []struct{ file, module, want string }{
		{"internal/api/orders.go", "internal/api", "API layer"},
		{"app/http_handlers/orders.py", "app.http_handlers", "API layer"},
		{"internal/store/update.go", "internal/store", "storage"},
		{"src/main/java/com/acme/repository/OrderRepository.java", "com.acme.repository", "storage"},
		{"worker/jobs/nightly.go", "worker/jobs", "scheduler"},
		{"cmd/gitnexus/main.go", "main", "CLI"},
		{"internal/api/orders_test.go", "internal/api", "tests"},
		{"tests/test_client.py", "tests", "tests"},
		{"src/components/Button.tsx", "src/components", "UI"},
		{"config/settings.py", "config", "configuration"},
		{"httpx/_api.py", "httpx", "API layer"},                   // the file's name
		{"httpx/_transports/default.py", "httpx._transports", ""}, // nothing says
		{"src/core/parse.ts", "src/core", ""},                     // nothing says
		{"pkg/v2/server/conn.go", "example.com/m/pkg/v2/server", "API layer"},
		{"api/storage/blob.go", "api/storage", "storage"}, // innermost folder first
		{"examples/basic/main.go", "main", "docs and examples"},
		{"scripts/release.py", "scripts", "build and tooling"},
		{"order/order.go", "example.com/shop/order", ""},  // not "example"
		{"x/y.go", "example.com/m/handlers", "API layer"}, // the package's own name
	} {
		if got := LayerOf(c.file, c.module); got != c.want {
			t.Errorf("LayerOf(%q, %q) = %q, want %q", c.file, c.module, got, c.want)
		}
	}
	for label, want := range map[string]string{
		"api + jobs": "API layer", "order + store": "", "core (jobs)": "", "routing (router)": "API layer", "jobs 2": "scheduler", "workers": "scheduler",
	} {
		if got := communityLayer(label); got != want {
			t.Errorf("communityLayer(%q) = %q, want %q", label, got, want)
		}
	}
}
