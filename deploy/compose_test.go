package deploy

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"gitnexus.dev/gitnexus/internal/cli"
)

type compose struct {
	Services map[string]struct {
		Image       string
		Build       any
		Environment map[string]string
		Command     any
		Entrypoint  any
		Ports       []string
		Volumes     []string
	}
	Volumes map[string]any
}

// TestCompose: the services the team set-up needs, images pinned, the
// build the repository's Dockerfile, the environment variables ones the
// program reads, and every gitnexus command line one its flags accept.
func TestCompose(t *testing.T) {
	raw, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	for _, name := range []string{"postgres", "redis", "indexer", "replica-1", "replica-2"} {
		if _, ok := c.Services[name]; !ok {
			t.Errorf("no service %s", name)
		}
	}
	if _, err := os.Stat("../Dockerfile"); err != nil {
		t.Errorf("the build's Dockerfile: %v", err)
	}
	pinned := regexp.MustCompile(`^[a-z0-9./-]+:[0-9][^ ]*$|^gitnexus:team$`)
	env := map[string]bool{}
	for name, s := range c.Services {
		if !pinned.MatchString(s.Image) {
			t.Errorf("%s: image %q is not pinned to a version", name, s.Image)
		}
		for k := range s.Environment {
			if strings.HasPrefix(k, "GITNEXUS_") {
				env[k] = true
			}
		}
		for _, v := range s.Volumes {
			if vol, _, ok := strings.Cut(v, ":"); ok && !strings.HasPrefix(vol, ".") {
				if _, ok := c.Volumes[vol]; !ok {
					t.Errorf("%s: volume %s is not declared", name, vol)
				}
			}
		}
	}
	// The variables the program reads are written in its sources; the
	// indexer's loop reads GITNEXUS_INDEX_EVERY itself.
	src, err := exec.Command("git", "grep", "-h", "-o", `"GITNEXUS_[A-Z_]*"`, "--", "../internal/*.go", "../cmd/*.go").Output()
	if err != nil {
		t.Fatalf("git grep: %v", err)
	}
	for k := range env {
		if k != "GITNEXUS_INDEX_EVERY" && !bytes.Contains(src, []byte(`"`+k+`"`)) {
			t.Errorf("the program does not read %s", k)
		}
	}
	for _, k := range []string{"GITNEXUS_DB_URI", "GITNEXUS_REDIS_URL", "GITNEXUS_AUTH_TOKEN"} {
		if !env[k] {
			t.Errorf("no service sets %s", k)
		}
	}
	// Every gitnexus command line parses (--help after it: nothing runs).
	var lines [][]string
	for name, s := range c.Services {
		if s.Build == nil {
			continue
		}
		switch cmd := s.Command.(type) {
		case []any:
			if s.Entrypoint != nil {
				for _, part := range cmd {
					for _, l := range strings.Split(part.(string), "\n") {
						if l = strings.TrimSpace(l); strings.HasPrefix(l, "gitnexus ") {
							f := strings.Fields(l[len("gitnexus "):])
							for j := range f {
								if strings.HasPrefix(f[j], "||") {
									f = f[:j]
									break
								}
							}
							lines = append(lines, f)
						}
					}
				}
				continue
			}
			var args []string
			for _, a := range cmd {
				args = append(args, a.(string))
			}
			lines = append(lines, args)
		default:
			t.Errorf("%s: command %v is not a list", name, s.Command)
		}
	}
	if len(lines) < 3 {
		t.Errorf("found %d gitnexus command lines, want the indexer's and the replicas'", len(lines))
	}
	t.Setenv("GITNEXUS_HOME", t.TempDir())
	for _, args := range lines {
		var out, errb bytes.Buffer
		if code := cli.Main(append(args, "--help"), cli.IO{Out: &out, ErrOut: &errb}); code != 0 {
			t.Errorf("gitnexus %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
	}
}
