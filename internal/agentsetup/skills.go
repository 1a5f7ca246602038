package agentsetup

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The skills: short task guides that name the gitnexus tools in the order
// to use them, written into a repository only by `gitnexus setup --skills`.

//go:embed skills/*.md
var skillFiles embed.FS

// SkillDirs are where agents look for skills, relative to a repository:
// Claude Code's own, and the one other agents share.
var SkillDirs = []string{filepath.Join(".claude", "skills"), filepath.Join(".agents", "skills")}

// skillMarker follows the front matter of every skill setup writes.
const skillMarker = "<!-- Written by `gitnexus setup --skills`; `gitnexus setup --uninstall` removes it. -->\n"

// Skill is one guide.
type Skill struct {
	Name string // the front matter's name, also the directory name
	Text string // SKILL.md as written
}

// Skills returns the guides, by name.
func Skills() []Skill {
	entries, err := skillFiles.ReadDir("skills")
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []Skill
	for _, e := range entries {
		b, err := skillFiles.ReadFile("skills/" + e.Name())
		if err != nil {
			panic(err)
		}
		src := string(b)
		name := frontMatterField(src, "name")
		// The marker goes after the front matter, which must open the file.
		end := strings.Index(src[4:], "\n---\n") + 4 + len("\n---\n")
		out = append(out, Skill{Name: name, Text: src[:end] + skillMarker + src[end:]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// frontMatterField returns a field of a SKILL.md front matter.
func frontMatterField(src, field string) string {
	for _, line := range strings.Split(src, "\n")[1:] {
		if line == "---" {
			break
		}
		if v, ok := strings.CutPrefix(line, field+": "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// InstallSkills writes every skill into each of SkillDirs of repo. A skill
// file of the same name that setup did not write is left alone.
func InstallSkills(o Options, repo string) ([]Change, error) {
	m, err := loadManifest(o.Home)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, dir := range SkillDirs {
		for _, s := range Skills() {
			changes = append(changes, o.installSkill(m, repo, dir, s))
		}
	}
	if o.DryRun {
		return changes, nil
	}
	return changes, m.save()
}

func (o *Options) installSkill(m *manifest, repo, dir string, s Skill) Change {
	path := filepath.Join(repo, dir, s.Name, "SKILL.md")
	c := Change{What: "skill " + s.Name, Path: path}
	old, existed, err := readFile(path)
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	rec := m.find(kindSkill, path)
	switch {
	case existed && bytes.Equal(old, []byte(s.Text)):
		c.Action = Unchanged
		return c
	case existed && !o.ownsSkill(rec, old):
		c.Action, c.Note = Kept, "a skill of that name that setup did not write: left alone"
		return c
	case existed:
		c.Action = Updated
	default:
		c.Action = Created
	}
	if o.DryRun {
		return c
	}
	dirs, err := mkdirs(filepath.Dir(path))
	if err == nil {
		err = writeAtomic(path, []byte(s.Text), 0o644)
	}
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	r := record{Kind: kindSkill, Path: path, Repo: repo, CreatedFile: true, CreatedDirs: dirs, SHA256: hashOf([]byte(s.Text))}
	if rec != nil {
		r.CreatedDirs = rec.CreatedDirs
	}
	m.put(r)
	return c
}

// ownsSkill reports whether a skill file is one setup wrote and nobody
// changed since: the hash recorded when it was written, or this version's
// text.
func (o *Options) ownsSkill(rec *record, content []byte) bool {
	if rec != nil && rec.SHA256 == hashOf(content) {
		return true
	}
	for _, s := range Skills() {
		if string(content) == s.Text {
			return true
		}
	}
	return false
}

// uninstallSkills removes the skill files setup wrote into repo: those the
// manifest records and those found with this version's text.
func (o *Options) uninstallSkills(m *manifest, repo string) []Change {
	paths := map[string]bool{}
	for _, r := range m.Records {
		if r.Kind == kindSkill && r.Repo == repo {
			paths[r.Path] = true
		}
	}
	for _, dir := range SkillDirs {
		for _, s := range Skills() {
			paths[filepath.Join(repo, dir, s.Name, "SKILL.md")] = true
		}
	}
	var sorted []string
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var changes []Change
	var dirs []string
	for _, path := range sorted {
		rec := m.find(kindSkill, path)
		c := Change{What: "skill " + filepath.Base(filepath.Dir(path)), Path: path}
		content, existed, err := readFile(path)
		switch {
		case err != nil:
			c.Action, c.Err = Failed, err
		case !existed:
			m.drop(kindSkill, path)
			continue // nothing to report for a skill that was never there
		case !o.ownsSkill(rec, content):
			if rec == nil {
				continue // someone else's skill of the same name
			}
			c.Action, c.Note = Kept, "changed since setup wrote it: left alone (delete it by hand)"
			m.drop(kindSkill, path)
		default:
			c.Action = Deleted
			if o.DryRun {
				break
			}
			if err := os.Remove(path); err != nil {
				c.Action, c.Err = Failed, fmt.Errorf("remove %s: %w", path, err)
				break
			}
			dirs = append(dirs, filepath.Dir(path))
			if rec != nil {
				dirs = append(dirs, rec.CreatedDirs...)
			}
			m.drop(kindSkill, path)
		}
		changes = append(changes, c)
	}
	removeEmptyDirs(dirs)
	return changes
}

// removeEmptyDirs removes those of dirs that are empty, deepest first, so
// that a directory emptied by removing its subdirectories goes too.
func removeEmptyDirs(dirs []string) {
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		_ = os.Remove(d) // fails, as it should, when d is not empty
	}
}
