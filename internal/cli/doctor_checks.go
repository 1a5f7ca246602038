package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/agentsetup"
	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// The checks of `gitnexus doctor`, one function per section.

func environmentChecks(ctx context.Context) []check {
	env := func(name, status, detail, fix string) check {
		return check{Section: "environment", Name: name, Status: status, Detail: detail, Fix: fix}
	}
	out := []check{env("gitnexus", checkOK, fmt.Sprintf("%s, index schema version %d", versionLine(), store.SchemaVersion), "")}

	if path, err := exec.LookPath("git"); err != nil {
		out = append(out, env("git", checkFail, "git is not on PATH: analyze lists files and reads the history with it",
			"install git (e.g. apt-get install git) or add it to PATH"))
	} else if v, err := gitOutput(ctx, "", "--version"); err != nil {
		out = append(out, env("git", checkFail, fmt.Sprintf("%s does not run: %v", path, err), "reinstall git"))
	} else {
		out = append(out, env("git", checkOK, fmt.Sprintf("%s (%s)", v, path), ""))
	}

	if err := store.ProbeFTS5(); err != nil {
		out = append(out, env("sqlite", checkFail, err.Error(), "rebuild: make build, or go build -tags sqlite_fts5 ./cmd/gitnexus"))
	} else {
		out = append(out, env("sqlite", checkOK, "full-text search (FTS5) available", ""))
	}

	out = append(out, registryCheck())
	out = append(out, embeddingChecks()...)
	return out
}

// embeddingChecks reports the embedding provider the configuration names
// (embeddings.json, GITNEXUS_EMBEDDING_*) and what it lacks, without
// embedding anything.
func embeddingChecks() []check {
	env := func(name, status, detail, fix string) check {
		return check{Section: "environment", Name: name, Status: status, Detail: detail, Fix: fix}
	}
	home, err := registry.Home()
	if err != nil {
		return []check{env("embeddings", checkFail, err.Error(), "set HOME or GITNEXUS_HOME")}
	}
	cfg, err := embed.LoadConfig(home, os.Getenv)
	if err != nil {
		return []check{env("embeddings", checkFail, err.Error(), "fix the embedding settings (docs/embeddings.md)")}
	}
	if !cfg.Enabled() {
		return []check{env("embeddings", checkInfo,
			"no embedding provider is configured: query ranks by full-text relevance (BM25) alone",
			"configure an embedder and run gitnexus analyze --embeddings=openai (or onnx) for vector search too: docs/embeddings.md")}
	}
	problems := embed.Check(cfg)
	if len(problems) == 0 {
		return []check{env("embeddings", checkOK, "provider "+cfg.Provider+" is configured", "")}
	}
	var out []check
	for _, p := range problems {
		out = append(out, env("embeddings", checkFail, "provider "+cfg.Provider+": "+p.What, p.Fix))
	}
	return out
}

func registryCheck() check {
	c := check{Section: "environment", Name: "registry"}
	path, err := registry.File()
	if err != nil {
		c.Status, c.Detail, c.Fix = checkFail, err.Error(), "set HOME or GITNEXUS_HOME"
		return c
	}
	entries, err := registry.List()
	if err != nil {
		c.Status, c.Detail, c.Fix = checkFail, err.Error(), "move "+path+" away, then run gitnexus analyze in each repository"
		return c
	}
	dir := filepath.Dir(path)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		c.Status, c.Detail, c.Fix = checkInfo, path+" does not exist yet: no repository is indexed", "gitnexus analyze <path>"
		return c
	}
	if err := writable(dir); err != nil {
		c.Status, c.Detail, c.Fix = checkFail, fmt.Sprintf("%s is not writable (%v): analyze cannot register repositories", dir, err),
			"fix the permissions of "+dir+", or set GITNEXUS_HOME to a writable directory"
		return c
	}
	c.Status, c.Detail = checkOK, fmt.Sprintf("%s (%d indexed)", path, len(entries))
	return c
}

func agentChecks() []check {
	agent := func(name, status, detail, fix string) check {
		return check{Section: "agents", Name: name, Status: status, Detail: detail, Fix: fix}
	}
	env, err := agentsetup.OSEnv()
	if err != nil {
		return []check{agent("home", checkFail, err.Error(), "set HOME")}
	}
	self, _ := executablePath()
	var out []check
	registered := 0
	for _, r := range agentsetup.Inspect(env) {
		name := r.Agent.Name
		fixSetup := "gitnexus setup --agent " + name
		switch {
		case r.Err != nil:
			out = append(out, agent(name, checkFail, r.Err.Error(), "fix the file, then run "+fixSetup))
		case r.Command == "" && r.Found:
			out = append(out, agent(name, checkInfo, r.Agent.Title+" is installed but does not know gitnexus", fixSetup))
		case r.Command == "":
		default:
			registered++
			prog, err := exec.LookPath(r.Command)
			if err != nil {
				out = append(out, agent(name, checkFail, fmt.Sprintf("%s runs %s, which does not exist", r.Path, r.Command), fixSetup))
				continue
			}
			if real, err := filepath.EvalSymlinks(prog); err == nil {
				prog = real
			}
			if abs, err := filepath.Abs(prog); err == nil && self != "" && abs != self {
				out = append(out, agent(name, checkWarn, fmt.Sprintf("%s runs %s, not this binary (%s)", r.Path, r.Command, self),
					fixSetup+" (to run this one)"))
				continue
			}
			out = append(out, agent(name, checkOK, fmt.Sprintf("%s runs %s", r.Path, r.Command), ""))
		}
	}
	if registered == 0 {
		out = append(out, agent("mcp", checkInfo, "no agent is set up to use gitnexus", "gitnexus setup (or gitnexus setup --agent all --dry-run to see what it would write)"))
	}
	return out
}

func repositoryChecks(ctx context.Context) []check {
	entries, err := registry.List()
	if err != nil {
		return nil // reported with the registry
	}
	if len(entries) == 0 {
		return []check{{Section: "repositories", Name: "none", Status: checkInfo, Detail: "no repository is indexed", Fix: "gitnexus analyze <path>"}}
	}
	var out []check
	for _, e := range entries {
		out = append(out, repositoryCheck(ctx, e))
	}
	return out
}

func repositoryCheck(ctx context.Context, e registry.Entry) check {
	c := check{Section: "repositories", Name: e.ID}
	fail := func(detail, fix string) check {
		c.Status, c.Detail, c.Fix = checkFail, detail, fix
		return c
	}
	if fi, err := os.Stat(e.Path); err != nil || !fi.IsDir() {
		return fail(e.Path+" no longer exists: move the repository back, or forget it", "gitnexus clean "+e.Path)
	}
	r, err := store.OpenRepo(e.Path)
	if err != nil {
		return fail(err.Error(), "gitnexus analyze --force "+e.Path)
	}
	defer r.Close()
	if err := r.CheckSearch(ctx); err != nil {
		return fail(err.Error(), "gitnexus analyze --force "+e.Path)
	}
	m := r.Meta()
	where := fmt.Sprintf("%s: schema %d, written by gitnexus %s on %s", e.Path, m.SchemaVersion, m.ToolVersion,
		m.IndexedAt.Local().Format(time.DateTime))
	if m.IndexedCommit != "" {
		where += " at " + shortHash(m.IndexedCommit)
	}
	fr := checkFreshness(ctx, e.Path, r, readGitState(ctx, e.Path))
	if !fr.Fresh {
		c.Status, c.Detail, c.Fix = checkWarn, where+"; stale: "+strings.Join(fr.Reasons, "; "), "gitnexus analyze "+e.Path
		return c
	}
	c.Status, c.Detail = checkOK, where+"; fresh"
	return c
}
