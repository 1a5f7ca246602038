package rust

import (
	"path"
	"sort"
	"strings"
)

// cargoPackage is what the rules read of one Cargo.toml: the package name,
// its library target and its binary targets. Only the keys that locate
// crate roots are read, with a line-based reader of the TOML subset
// Cargo manifests use for them.
type cargoPackage struct {
	dir     string // directory of the manifest ("" at the root)
	name    string // [package] name, as written
	libName string // [lib] name, else the package name with - as _
	libPath string // [lib] path, relative to dir; "" for the default
	bins    []cargoTarget
}

type cargoTarget struct{ name, path string }

// readManifest reads the keys of a Cargo.toml that name crates and roots.
// Workspaces need nothing more: every manifest with a [package] in the
// repository is a crate, whichever workspace lists it.
func readManifest(file string, content []byte) cargoPackage {
	pkg := cargoPackage{dir: dirOf(file)}
	section := ""
	var bin *cargoTarget
	for _, raw := range strings.Split(string(content), "\n") {
		line := strings.TrimSpace(stripComment(raw))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[] ")
			if section == "bin" && strings.HasPrefix(line, "[[") {
				pkg.bins = append(pkg.bins, cargoTarget{})
				bin = &pkg.bins[len(pkg.bins)-1]
			} else {
				bin = nil
			}
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		str := strings.Trim(strings.TrimSpace(value), "\"'")
		switch {
		case section == "package" && key == "name":
			pkg.name = str
		case section == "lib" && key == "name":
			pkg.libName = str
		case section == "lib" && key == "path":
			pkg.libPath = str
		case section == "bin" && bin != nil && key == "name":
			bin.name = str
		case section == "bin" && bin != nil && key == "path":
			bin.path = str
		}
	}
	if pkg.libName == "" {
		pkg.libName = crateName(pkg.name)
	}
	return pkg
}

// crateName is the name code uses for a crate: dashes become underscores.
func crateName(name string) string { return strings.ReplaceAll(name, "-", "_") }

func stripComment(line string) string {
	inStr := byte(0)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case inStr != 0 && c == inStr:
			inStr = 0
		case inStr == 0 && (c == '"' || c == '\''):
			inStr = c
		case inStr == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

func joinPath(dir, rel string) string {
	if dir == "" {
		return path.Clean(rel)
	}
	return path.Join(dir, rel)
}

// crateRoot is one crate of the repository: a library, a binary, a test,
// an example or a bench, with its root file.
type crateRoot struct {
	name string // the crate's name in code
	root string // root file
	lib  bool
	pkg  *cargoPackage
}

// crateRoots lists the crates of the manifests, libraries first, from the
// targets Cargo infers (src/lib.rs, src/main.rs, src/bin/*.rs,
// src/bin/*/main.rs, tests/*.rs, examples/*.rs, benches/*.rs) and those the
// manifest declares. exists reports whether a file is in the repository;
// files lists them all, sorted.
func crateRoots(pkgs []*cargoPackage, files []string, exists func(string) bool) []crateRoot {
	var libs, others []crateRoot
	for _, pkg := range pkgs {
		if pkg.name == "" {
			continue // a virtual workspace manifest
		}
		lib := joinPath(pkg.dir, "src/lib.rs")
		if pkg.libPath != "" {
			lib = joinPath(pkg.dir, pkg.libPath)
		}
		if exists(lib) {
			libs = append(libs, crateRoot{name: pkg.libName, root: lib, lib: true, pkg: pkg})
		}
		declared := map[string]bool{}
		for _, b := range pkg.bins {
			p := b.path
			if p == "" {
				p = "src/bin/" + b.name + ".rs"
				if b.name == pkg.name {
					p = "src/main.rs"
				}
			}
			p = joinPath(pkg.dir, p)
			if exists(p) && !declared[p] {
				declared[p] = true
				others = append(others, crateRoot{name: crateName(b.name), root: p, pkg: pkg})
			}
		}
		if p := joinPath(pkg.dir, "src/main.rs"); exists(p) && !declared[p] {
			declared[p] = true
			others = append(others, crateRoot{name: crateName(pkg.name), root: p, pkg: pkg})
		}
		for _, f := range files {
			rel := f
			if pkg.dir != "" {
				if !strings.HasPrefix(f, pkg.dir+"/") {
					continue
				}
				rel = f[len(pkg.dir)+1:]
			}
			name := ""
			switch parts := strings.Split(rel, "/"); {
			case len(parts) == 3 && parts[0] == "src" && parts[1] == "bin" && strings.HasSuffix(parts[2], ".rs"):
				name = strings.TrimSuffix(parts[2], ".rs")
			case len(parts) == 4 && parts[0] == "src" && parts[1] == "bin" && parts[3] == "main.rs":
				name = parts[2]
			case len(parts) == 2 && (parts[0] == "tests" || parts[0] == "examples" || parts[0] == "benches") && strings.HasSuffix(parts[1], ".rs"):
				name = strings.TrimSuffix(parts[1], ".rs")
			case len(parts) == 3 && (parts[0] == "tests" || parts[0] == "examples" || parts[0] == "benches") && parts[2] == "main.rs":
				name = parts[1]
			case len(parts) == 1 && parts[0] == "build.rs":
				name = "build_script_build"
			}
			if name != "" && !declared[f] {
				declared[f] = true
				others = append(others, crateRoot{name: crateName(name), root: f, pkg: pkg})
			}
		}
	}
	sort.SliceStable(libs, func(i, j int) bool { return libs[i].root < libs[j].root })
	sort.SliceStable(others, func(i, j int) bool { return others[i].root < others[j].root })
	return append(libs, others...)
}
