package csharp

import (
	"encoding/xml"
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Projects. A .csproj file makes a project of the C# files under its
// directory: the nearest project file above a source file claims it, as
// SDK-style projects take every **/*.cs below them and a nested
// project's files are its own. A project sees its own types and those of
// the projects it references (<ProjectReference Include="..\Core\Core.csproj"/>,
// or <PackageReference Include="Core"/> naming a project of the repository
// by its file name or <PackageId>: the package is built from that source),
// directly or not; a type of a project it does not reference is not
// visible to it, even in an imported namespace (two projects often declare
// the same names: tests, samples, tools). A `global using` applies to the
// files of its own project, and so do the project file's
// <Using Include="Ns"/> items. Files under no project file see every
// type and are seen by every file; a repository without project files is
// one compilation. A name written in full (Acme.Unit) walks the namespaces
// without this filter: the rules' Export has no calling file.

// noProject is the project of files under no project file.
const noProject = -1

// project is one .csproj.
type project struct {
	dir     string        // repository-relative, "" for the root
	refs    []int         // referenced projects
	visible map[int]bool  // itself and every project it references, directly or not
	usings  []lang.Import // its <Using Include> items
}

// projects are a repository's project files.
type projects struct {
	list  []project
	byDir map[string]int
}

// projectFile is what is read of a .csproj.
type projectFile struct {
	PackageIDs []string `xml:"PropertyGroup>PackageId"`
	ItemGroups []struct {
		References []struct {
			Include string `xml:"Include,attr"`
		} `xml:"ProjectReference"`
		Packages []struct {
			Include string `xml:"Include,attr"`
		} `xml:"PackageReference"`
		Usings []struct {
			Include string `xml:"Include,attr"`
			Alias   string `xml:"Alias,attr"`
			Static  string `xml:"Static,attr"`
		} `xml:"Using"`
	} `xml:"ItemGroup"`
}

// readProjects reads the .csproj files among config (repository-relative
// path → content). A file that is not readable XML is a project without
// references.
func readProjects(config map[string][]byte) *projects {
	ps := &projects{byDir: map[string]int{}}
	var paths []string
	for p := range config {
		if strings.EqualFold(path.Ext(p), ".csproj") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	files := make([]projectFile, 0, len(paths))
	byPath := map[string]int{}
	byName := map[string]int{} // lower-cased file names and package ids
	for _, p := range paths {
		dir := lang.Dir(p)
		if _, taken := ps.byDir[dir]; taken {
			continue // a second project file in one directory: the first by name claims the files
		}
		var pf projectFile
		_ = xml.Unmarshal(config[p], &pf)
		byPath[p] = len(ps.list)
		ps.byDir[dir] = len(ps.list)
		for _, name := range append([]string{strings.TrimSuffix(path.Base(p), path.Ext(p))}, pf.PackageIDs...) {
			if key := strings.ToLower(strings.TrimSpace(name)); key != "" {
				if _, taken := byName[key]; !taken {
					byName[key] = len(ps.list)
				}
			}
		}
		ps.list = append(ps.list, project{dir: dir})
		files = append(files, pf)
	}
	for i, pf := range files {
		pr := &ps.list[i]
		for _, g := range pf.ItemGroups {
			for _, ref := range g.References {
				target := projectPath(pr.dir, ref.Include)
				if j, ok := byPath[target]; ok && j != i {
					pr.refs = append(pr.refs, j)
				}
			}
			for _, pkg := range g.Packages {
				if j, ok := byName[strings.ToLower(strings.TrimSpace(pkg.Include))]; ok && j != i {
					pr.refs = append(pr.refs, j)
				}
			}
			for _, u := range g.Usings {
				ns := strings.TrimSpace(u.Include)
				if ns == "" || u.Alias != "" || strings.EqualFold(u.Static, "true") {
					continue // aliases and static usings of project files are not followed
				}
				pr.usings = append(pr.usings, lang.Import{Kind: lang.ImportWildcard, Path: ns, Name: globalMark})
			}
		}
	}
	for i := range ps.list {
		ps.list[i].visible = ps.reach(i)
	}
	return ps
}

// projectPath resolves a ProjectReference's Include (Windows separators,
// relative to the referencing project's directory) to a
// repository-relative path; "" when it uses MSBuild properties or leaves
// the repository.
func projectPath(dir, include string) string {
	inc := strings.ReplaceAll(strings.TrimSpace(include), `\`, "/")
	if inc == "" || strings.Contains(inc, "$(") || path.IsAbs(inc) {
		return ""
	}
	p := path.Clean(path.Join(dir, inc))
	if p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// reach lists project i and every project it references, directly or not.
func (ps *projects) reach(i int) map[int]bool {
	seen := map[int]bool{i: true}
	stack := []int{i}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range ps.list[j].refs {
			if !seen[k] {
				seen[k] = true
				stack = append(stack, k)
			}
		}
	}
	return seen
}

// of is the project of a source file: the nearest project file above it.
func (ps *projects) of(file string) int {
	if ps == nil || len(ps.list) == 0 {
		return noProject
	}
	for dir := lang.Dir(file); ; dir = lang.Dir(dir) {
		if i, ok := ps.byDir[dir]; ok {
			return i
		}
		if dir == "" {
			return noProject
		}
	}
}

// sees reports whether code of project from may use types of project to.
func (ps *projects) sees(from, to int) bool {
	if from == noProject || to == noProject {
		return true
	}
	return ps.list[from].visible[to]
}
