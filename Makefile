# GitNexus build and test entry points. The two commands the README promises:
#   make analyze REPO=<path>   build, index a repository, print its summary
#   make test                  the whole test suite (what CI runs)
# and make release: dist/gitnexus-<version>-linux-{amd64,arm64}.tar.gz.

SHELL      := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO         ?= go
TAGS       := sqlite_fts5
VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT     ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE       ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS    := -X gitnexus.dev/gitnexus/internal/cli.version=$(VERSION) \
              -X gitnexus.dev/gitnexus/internal/cli.commit=$(COMMIT) \
              -X gitnexus.dev/gitnexus/internal/cli.buildDate=$(DATE)
BIN        := bin/gitnexus
REPO       ?= .

.PHONY: build analyze test test-services test-short test-skill test-fresh test-race vet fmt-check bench release clean

# go build, saying so first when it will compile the C code (minutes).
build:
	GO=$(GO) packaging/build.sh -tags $(TAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gitnexus

# Index REPO (default: this repository), print the summary, then say whether
# the index is fresh.
analyze: build
	./$(BIN) analyze --force $(REPO)
	./$(BIN) status $(REPO)

# Linux, then Windows and macOS (packaging/vet-os.sh says what each covers).
vet:
	$(GO) vet -tags $(TAGS) ./...
	packaging/vet-os.sh

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The whole suite: formatting, vet, unit and fixture tests, end-to-end tests
# that drive the built binary, the race detector on concurrent packages, and
# an independent MCP client (the MCP Inspector's CLI, installed from
# test/inspector/package-lock.json) against the built server, and the agent
# skill's Python tests against the built server. The onnx embedding
# provider's tests load the ONNX Runtime library that
# test/onnxruntime/install.sh installs (from onnxruntime-node, pinned in
# its package-lock.json); they fail when it cannot be installed. The team
# mode's and the web view's tests start real PostgreSQL, Redis and Chromium
# (test-services). Last, the web view's bundle against its sources
# (web/check.sh: npm ci from web/package-lock.json, build, compare), the
# fresh-clone check (test/fresh/check.sh) and the Dockerfile's
# (packaging/dockerfile-check.sh: no Docker engine needed).
test: fmt-check vet build test-skill test-services
	ort="$$(test/onnxruntime/install.sh)" && export GITNEXUS_TEST_ONNXRUNTIME="$$ort" && \
	$(GO) test -tags $(TAGS) -count=1 ./...
	$(GO) test -tags $(TAGS) -count=1 -race ./internal/ingest/ ./internal/repofiles/ ./internal/history/ ./internal/memgraph/ ./internal/registry/ ./internal/store/ ./internal/backend/ ./internal/httpserver/ \
		./internal/freshness/ ./internal/debounce/ ./internal/watch/ ./internal/githook/ ./internal/webhook/ \
		./internal/teamstore/ ./internal/answercache/
	$(GO) test -tags $(TAGS) -count=1 -race -run 'TestConcurrentQueries' ./internal/cypher/
	$(GO) test -tags $(TAGS) -count=1 -race -run 'TestPrefetch' ./internal/index/
	test/inspector/check.sh $(BIN)
	web/check.sh
	test/fresh/check.sh
	packaging/dockerfile-check.sh

# The quick tier for everyday work: the suite without its slowest tests
# (go test -short), about two minutes on 2 cores. make test runs them all.
# The servers the team-mode tests start (internal/testservices): Debian's
# PostgreSQL and Redis, and the Chromium the web view's browser tests drive
# (internal/webui/browsertest), installed when missing (never started here).
test-services:
	packaging/apt-install.sh redis-server redis-server
	packaging/apt-install.sh /usr/bin/chromium chromium
	ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || packaging/apt-install.sh /usr/lib/postgresql/15/bin/postgres postgresql

test-short:
	$(GO) test -tags $(TAGS) -short ./...

# A clean clone, the README's first command in it, then setup --dry-run
# --agent all and doctor with an empty home directory, and make release.
# GITNEXUS_FRESH_COLD=1 builds it all with an empty Go build cache.
test-fresh:
	test/fresh/check.sh

# The history skill's client (skills/gitnexus-history) against bin/gitnexus:
# a fixture repository indexed and served on 127.0.0.1, then the fallbacks.
test-skill: build
	cd skills/gitnexus-history && GITNEXUS_BIN=$(CURDIR)/$(BIN) PYTHONDONTWRITEBYTECODE=1 python3 -m unittest test_gitnexus_history

# Versioned archives of the Linux binary for each of ARCHS (and any shared
# library it needs beyond the C library, beside it under lib/) with the
# license, README and docs, and dist/SHA256SUMS; arm64 is cross-compiled.
ARCHS      ?= amd64 arm64
release:
	packaging/release.sh $(VERSION) $(COMMIT) $(DATE) $(ARCHS)

# GITNEXUS_BENCH_REPO=<indexed repository> runs them on that index; the
# Cypher and tool benchmarks are skipped without it (bench/cypher/RESULTS.md).
bench:
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem ./internal/memgraph/ ./internal/cypher/ ./internal/backend/

clean:
	rm -rf bin dist
