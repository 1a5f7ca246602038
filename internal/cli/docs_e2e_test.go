package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The examples in docs/ are run, so that documentation that drifts from the
// code fails the build:
//
//   - in a ```sh block, every command that starts with `gitnexus` (a line
//     ending in \ continues on the next) runs in bash, in the repository of
//     testdata/docs-repo.txt indexed at ~/src/app, and must succeed;
//   - in a ```cypher block, every query (queries are separated by blank
//     lines) runs with `gitnexus cypher` and must succeed; the queries of
//     docs/cypher-cookbook.md must also return rows.
//
// A block preceded by a line `<!-- not run: <why> -->` is skipped (servers
// that would not stop, addresses that are not local).

// docBlock is one fenced block of a markdown file.
type docBlock struct {
	lang   string
	line   int // of the opening fence, 1-based
	body   []string
	notRun string
}

var notRunLine = regexp.MustCompile(`^<!-- not run: (.+) -->$`)

func docBlocks(text string) []docBlock {
	var blocks []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		b := docBlock{lang: strings.TrimSpace(strings.TrimPrefix(lines[i], "```")), line: i + 1}
		if i > 0 {
			if m := notRunLine.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				b.notRun = m[1]
			}
		}
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			b.body = append(b.body, lines[i])
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// shellCommands joins continued lines and keeps the gitnexus commands.
func shellCommands(body []string) []string {
	var cmds []string
	cur := ""
	for _, l := range body {
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		cur += l
		if strings.HasPrefix(strings.TrimSpace(cur), "gitnexus ") {
			cmds = append(cmds, strings.TrimSpace(cur))
		}
		cur = ""
	}
	return cmds
}

// cypherQueries splits a block on blank lines.
func cypherQueries(body []string) []string {
	var out []string
	cur := ""
	for _, l := range append(body, "") {
		if strings.TrimSpace(l) == "" {
			if strings.TrimSpace(cur) != "" {
				out = append(out, strings.TrimSpace(cur))
			}
			cur = ""
			continue
		}
		cur += l + "\n"
	}
	return out
}

// docsRepo writes testdata/docs-repo.txt at root, commit by commit.
func docsRepo(t *testing.T, root string) {
	t.Helper()
	b, err := os.ReadFile("testdata/docs-repo.txt")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`(?m)^-- (.+) --$`)
	text := string(b)
	marks := section.FindAllStringSubmatchIndex(text, -1)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, root, "init", "-q", "-b", "main")
	for i, m := range marks {
		name := text[m[2]:m[3]]
		end := len(text)
		if i+1 < len(marks) {
			end = marks[i+1][0]
		}
		if msg, ok := strings.CutPrefix(name, "commit: "); ok {
			git(t, root, "add", "-A")
			git(t, root, "commit", "-q", "-m", msg)
			continue
		}
		writeFiles(t, root, map[string]string{name: text[m[1]+1 : end]})
	}
}

func TestDocsExamples(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	binDir := filepath.Dir(binary)
	ran := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		var blocks []docBlock
		for _, blk := range docBlocks(string(b)) {
			if (blk.lang == "sh" || blk.lang == "cypher") && blk.notRun == "" {
				blocks = append(blocks, blk)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		name := filepath.Base(doc)
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			repo := filepath.Join(home, "src", "app")
			docsRepo(t, repo)
			mustRunHome(t, home, repo, "analyze", "-q")
			queries := 0
			for _, blk := range blocks {
				switch blk.lang {
				case "sh":
					for _, c := range shellCommands(blk.body) {
						ran++
						cmd, cancel := docCommand(c)
						r := runIn(t, cmd, home, repo, []string{"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH")})
						cancel()
						if r.code != 0 {
							t.Errorf("%s:%d: %s: exit %d\n%s%s", name, blk.line, c, r.code, r.stdout, r.stderr)
						}
					}
				case "cypher":
					for _, q := range cypherQueries(blk.body) {
						ran++
						queries++
						r := runHome(t, home, repo, "cypher", "--json", q)
						var res struct {
							RowCount int `json:"row_count"`
						}
						if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
							t.Errorf("%s:%d: %s\nexit %d\n%s%s", name, blk.line, q, r.code, r.stdout, r.stderr)
							continue
						}
						if name == "cypher-cookbook.md" && res.RowCount == 0 {
							t.Errorf("%s:%d: no rows on the docs repository:\n%s", name, blk.line, q)
						}
					}
				}
			}
			if name == "cypher-cookbook.md" && queries != 20 {
				t.Errorf("the cookbook promises 20 queries and has %d", queries)
			}
		})
	}
	if ran == 0 {
		t.Error("no example in docs/ ran")
	}
	t.Logf("%d examples from docs/ ran", ran)
}

// docCommand runs one documented command line in its own process group,
// which is killed after two minutes: a command that does not end (a
// watcher, a server) belongs in a block marked not run, and must fail
// here rather than hang the suite. The caller calls cancel when done.
func docCommand(line string) (*exec.Cmd, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, "bash", "-c", line)
	killGroupOnCancel(cmd)
	cmd.WaitDelay = 5 * time.Second
	return cmd, cancel
}
