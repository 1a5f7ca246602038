package c

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// state is what the rules know of one program: each file's resolved
// includes and, computed on demand, the headers it sees transitively.
type state struct {
	p        *lang.Program
	includes map[*lang.File][]*lang.File
	mu       sync.Mutex
	closure  map[*lang.File]map[*lang.File]bool
}

func stateOf(f *lang.File) *state {
	if f.Module == nil {
		return nil
	}
	st, _ := f.Module.Data.(*state)
	return st
}

// Organize makes each file its own module and resolves every #include.
// A quoted include is looked up next to the including file, then in the
// include directories; an angle include in the include directories only.
// The include directories are the `-I` flags of compile_commands.json
// files when the repository has some, else every directory named
// include, the src directory and the repository root.
func (rules) Organize(p *lang.Program) {
	st := &state{p: p, includes: map[*lang.File][]*lang.File{}, closure: map[*lang.File]map[*lang.File]bool{}}
	for _, f := range p.Files {
		m := p.Module(f.Facts.Path, path.Base(f.Facts.Path), lang.Dir(f.Facts.Path), false)
		m.Data = st
		p.AddFile(m, f)
	}
	dirs := compileIncludeDirs(p)
	if len(dirs) == 0 {
		dirs = layoutIncludeDirs(p)
	}
	for _, f := range p.Files {
		for _, imp := range f.Facts.Imports {
			target := st.findHeader(f, imp.Path, dirs)
			if target == nil || target == f {
				continue
			}
			st.includes[f] = append(st.includes[f], target)
			f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: graph.FileID(target.Facts.Path), Line: imp.Line})
		}
	}
}

// BindImports: Organize did the work, as includes need every file.
func (rules) BindImports(*lang.Program, *lang.File) {}

func (st *state) findHeader(f *lang.File, written string, dirs []string) *lang.File {
	system := strings.HasPrefix(written, "<") && strings.HasSuffix(written, ">")
	name := strings.TrimSuffix(strings.TrimPrefix(written, "<"), ">")
	if !system {
		if t := st.p.File(cleanJoin(lang.Dir(f.Facts.Path), name)); t != nil {
			return t
		}
	}
	for _, d := range dirs {
		if t := st.p.File(cleanJoin(d, name)); t != nil {
			return t
		}
	}
	return nil
}

func cleanJoin(dir, name string) string {
	p := path.Clean(path.Join(dir, name))
	return strings.TrimPrefix(p, "./")
}

// sees returns the files f includes, directly or transitively, and f.
func (st *state) sees(f *lang.File) map[*lang.File]bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if c, ok := st.closure[f]; ok {
		return c
	}
	c := map[*lang.File]bool{f: true}
	queue := []*lang.File{f}
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		for _, h := range st.includes[g] {
			if !c[h] {
				c[h] = true
				queue = append(queue, h)
			}
		}
	}
	st.closure[f] = c
	return c
}

// layoutIncludeDirs are the usual places of headers: every directory
// named include, src, and the root.
func layoutIncludeDirs(p *lang.Program) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range p.Files {
		for d := lang.Dir(f.Facts.Path); d != ""; d = lang.Dir(d) {
			if path.Base(d) == "include" && !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	sort.Strings(dirs)
	return append(dirs, "src", "")
}

// compileCommand is one entry of compile_commands.json.
type compileCommand struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// compileIncludeDirs reads the -I flags of the compile_commands.json
// files, as repository-relative directories. Their paths are absolute on
// the machine that wrote them: the repository's root there is found by
// matching an entry's file against the repository's files.
func compileIncludeDirs(p *lang.Program) []string {
	var names []string
	for name := range p.Config {
		if path.Base(name) == "compile_commands.json" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	seen := map[string]bool{}
	var dirs []string
	for _, name := range names {
		var cmds []compileCommand
		if json.Unmarshal(p.Config[name], &cmds) != nil {
			continue
		}
		root := ""
		for _, c := range cmds {
			if r, ok := rootOf(p, absolute(c.Directory, c.File)); ok {
				root = r
				break
			}
		}
		for _, c := range cmds {
			args := c.Arguments
			if len(args) == 0 {
				args = strings.Fields(c.Command)
			}
			for i, a := range args {
				var d string
				switch {
				case a == "-I" || a == "-isystem" || a == "-iquote":
					if i+1 < len(args) {
						d = args[i+1]
					}
				case strings.HasPrefix(a, "-I"):
					d = a[2:]
				}
				if d == "" {
					continue
				}
				rel, ok := relative(root, absolute(c.Directory, d))
				if ok && !seen[rel] {
					seen[rel] = true
					dirs = append(dirs, rel)
				}
			}
		}
	}
	return dirs
}

func absolute(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Clean(path.Join(dir, p))
}

// rootOf finds the repository root in an absolute path of a repository file.
func rootOf(p *lang.Program, abs string) (string, bool) {
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	for i := range parts {
		if p.File(strings.Join(parts[i:], "/")) != nil {
			return "/" + strings.Join(parts[:i], "/"), true
		}
	}
	return "", false
}

// relative makes an absolute directory repository-relative; a directory
// outside the repository (a system one) is left out.
func relative(root, abs string) (string, bool) {
	if root == "" {
		return "", false
	}
	if abs == root {
		return "", true
	}
	if rel, ok := strings.CutPrefix(abs, strings.TrimSuffix(root, "/")+"/"); ok {
		return rel, true
	}
	return "", false
}
