package lang

import (
	"path"
	"strings"
)

// UnnamedPackage prefixes the key of the module that holds a directory's
// files declaring no package (Java, Kotlin, Scala).
const UnnamedPackage = "(unnamed package) "

// GroupByPackage puts each file in the module of the dotted package it
// declares (FileFacts.Package; a Package node named by the last part and
// qualified by the whole name), or, when it declares none, in the unnamed
// package of its directory, which has no node.
func (p *Program) GroupByPackage() {
	for _, f := range p.Files {
		pkg := f.Facts.Package
		dir := Dir(f.Facts.Path)
		var m *Module
		if pkg == "" {
			m = p.Module(UnnamedPackage+dir, path.Base("/"+dir), dir, false)
		} else {
			m = p.Module(pkg, pkg[strings.LastIndexByte(pkg, '.')+1:], dir, true)
			m.Qualifier = pkg
		}
		p.AddFile(m, f)
	}
}

// AddPackagePrefixes gives each leading part of a package's dotted name
// (a and a.b of a.b.c) a module without a node (PackagePrefix) when it
// has none, so that qualified names walk through them.
func (p *Program) AddPackagePrefixes() {
	for _, m := range p.SortedModules() {
		if !m.IsPackage {
			continue
		}
		for i := 0; i < len(m.Key); i++ {
			if m.Key[i] != '.' {
				continue
			}
			prefix := m.Key[:i]
			if _, ok := p.Modules[prefix]; !ok {
				pm := p.Module(prefix, prefix[strings.LastIndexByte(prefix, '.')+1:], "", false)
				pm.PackagePrefix = true
			}
		}
	}
}
