package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// docIndex is what the oracle reads of rustdoc's JSON for one crate: each
// item's span, the items of each module by path, the impls of each type
// and trait.
type docIndex struct {
	crateDir string
	items    map[int]*docItem
	byPath   map[string]int // "ast::parse::ParserI" → id (modules, types, traits, functions)
	files    []string
	// inherent impls of each type; impls of each trait (local traits by
	// id); impls of external traits by trait name and type id.
	inherent map[int][]int
	traitOf  map[int][]int
	external map[string][]int // "Debug" → impls
}

type docItem struct {
	ID     int             `json:"id"`
	Crate  int             `json:"crate_id"`
	Name   *string         `json:"name"`
	Span   *docSpan        `json:"span"`
	Inner  json.RawMessage `json:"inner"`
	kind   string
	module *struct {
		Items []int `json:"items"`
	}
	impl *struct {
		Trait *struct {
			Path string `json:"path"`
			ID   int    `json:"id"`
		} `json:"trait"`
		For         json.RawMessage `json:"for"`
		Items       []int           `json:"items"`
		IsSynthetic bool            `json:"is_synthetic"`
		Blanket     json.RawMessage `json:"blanket_impl"`
	}
	trait *struct {
		Items []int `json:"items"`
	}
	hasBody bool
	forID   int    // the impl's type, when it is a path
	forName string // the impl's type's last path segment or primitive name
}

type docSpan struct {
	Filename string `json:"filename"`
	Begin    [2]int `json:"begin"`
}

func (it *docItem) name() string {
	if it.Name == nil {
		return ""
	}
	return *it.Name
}

func loadDoc(path, crateDir string) (*docIndex, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw struct {
		Root  int                 `json:"root"`
		Index map[string]*docItem `json:"index"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	d := &docIndex{crateDir: crateDir, items: map[int]*docItem{}, byPath: map[string]int{},
		inherent: map[int][]int{}, traitOf: map[int][]int{}, external: map[string][]int{}}
	files := map[string]bool{}
	for _, it := range raw.Index {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(it.Inner, &inner); err != nil {
			return nil, err
		}
		for k, v := range inner {
			it.kind = k
			switch k {
			case "module":
				json.Unmarshal(v, &it.module) //nolint:errcheck // shape checked by use
			case "impl":
				json.Unmarshal(v, &it.impl) //nolint:errcheck
			case "trait":
				json.Unmarshal(v, &it.trait) //nolint:errcheck
			case "function":
				var fn struct {
					HasBody bool `json:"has_body"`
				}
				json.Unmarshal(v, &fn) //nolint:errcheck
				it.hasBody = fn.HasBody
			}
		}
		d.items[it.ID] = it
		if it.Crate == 0 && it.Span != nil && !strings.HasPrefix(it.Span.Filename, "/") {
			files[d.repoPath(it.Span.Filename)] = true
		}
	}
	for f := range files {
		d.files = append(d.files, f)
	}
	d.walkModule(raw.Root, "")
	for id, it := range d.items {
		if it.kind != "impl" || it.Crate != 0 || it.impl.IsSynthetic || it.Span == nil {
			continue
		}
		it.forID, it.forName = implFor(it.impl.For)
		switch {
		case it.impl.Trait == nil:
			if it.forID >= 0 {
				d.inherent[it.forID] = append(d.inherent[it.forID], id)
			}
		case d.items[it.impl.Trait.ID] != nil && d.items[it.impl.Trait.ID].Crate == 0 && d.items[it.impl.Trait.ID].kind == "trait":
			d.traitOf[it.impl.Trait.ID] = append(d.traitOf[it.impl.Trait.ID], id)
		default:
			name := it.impl.Trait.Path
			if i := strings.LastIndex(name, "::"); i >= 0 {
				name = name[i+2:]
			}
			d.external[name] = append(d.external[name], id)
		}
	}
	return d, nil
}

// implFor reads an impl's type: the id of a path type, and its name.
func implFor(raw json.RawMessage) (int, string) {
	var t map[string]json.RawMessage
	if json.Unmarshal(raw, &t) != nil {
		return -1, ""
	}
	if v, ok := t["borrowed_ref"]; ok {
		var r struct {
			Type json.RawMessage `json:"type"`
		}
		json.Unmarshal(v, &r) //nolint:errcheck
		return implFor(r.Type)
	}
	if v, ok := t["resolved_path"]; ok {
		var p struct {
			Path string `json:"path"`
			ID   int    `json:"id"`
		}
		json.Unmarshal(v, &p) //nolint:errcheck
		name := p.Path
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		return p.ID, name
	}
	if v, ok := t["primitive"]; ok {
		var s string
		json.Unmarshal(v, &s) //nolint:errcheck
		return -1, s
	}
	return -1, ""
}

func (d *docIndex) repoPath(file string) string {
	return filepath.ToSlash(filepath.Join(d.crateDir, file))
}

// walkModule names the items of a module by their path from the crate
// root.
func (d *docIndex) walkModule(id int, prefix string) {
	m := d.items[id]
	if m == nil || m.module == nil {
		return
	}
	for _, c := range m.module.Items {
		it := d.items[c]
		if it == nil || it.Crate != 0 || it.name() == "" {
			continue
		}
		path := it.name()
		if prefix != "" {
			path = prefix + "::" + path
		}
		switch it.kind {
		case "module":
			d.byPath[path] = c
			d.walkModule(c, path)
		case "function", "struct", "enum", "union", "trait", "type_alias", "constant", "static":
			d.byPath[path] = c
		}
	}
}

func (d *docIndex) endpoint(id int) (endpoint, bool) {
	it := d.items[id]
	if it == nil || it.Span == nil || it.Crate != 0 || strings.HasPrefix(it.Span.Filename, "/") {
		return endpoint{}, false
	}
	return endpoint{File: d.repoPath(it.Span.Filename), Line: it.Span.Begin[0], Name: it.name()}, true
}

// implMethod is the method named name that impl declares, or -1.
func (d *docIndex) implMethod(impl int, name string) int {
	for _, c := range d.items[impl].impl.Items {
		if it := d.items[c]; it != nil && it.kind == "function" && it.name() == name {
			return c
		}
	}
	return -1
}

// traitMethod is the method named name of a local trait, or -1.
func (d *docIndex) traitMethod(trait int, name string) int {
	it := d.items[trait]
	if it == nil || it.trait == nil {
		return -1
	}
	for _, c := range it.trait.Items {
		if m := d.items[c]; m != nil && m.kind == "function" && m.name() == name {
			return c
		}
	}
	return -1
}

// resolve maps a MIR callee to the repository's declarations: the static
// targets and, for a call through a trait on a type that is not known,
// the implementations that may run. status says what the callee was.
func (d *docIndex) resolve(callee string) (static, dispatch []endpoint, status string) {
	if strings.HasPrefix(callee, "move ") || strings.HasPrefix(callee, "copy ") ||
		strings.HasPrefix(callee, "_") || strings.HasPrefix(callee, "(") || strings.HasPrefix(callee, "const ") {
		return nil, nil, "indirect"
	}
	segs := splitPath(callee)
	for i := range segs {
		segs[i] = strings.TrimSpace(segs[i])
	}
	// Generic arguments written as segments: `Type::<T>::f`, `f::<T>`.
	kept := segs[:0]
	for i, s := range segs {
		if i > 0 && strings.HasPrefix(s, "<") && !strings.HasPrefix(s, "<impl ") {
			continue
		}
		kept = append(kept, s)
	}
	segs = kept
	method := segs[len(segs)-1]
	add := func(list *[]endpoint, id int) bool {
		e, ok := d.endpoint(id)
		if ok {
			*list = append(*list, e)
		}
		return ok
	}
	if len(segs) == 2 && strings.HasPrefix(segs[0], "<") && strings.Contains(segs[0], " as ") {
		typ, trait := qualified(segs[0])
		if strings.HasPrefix(typ, "{closure@") || strings.HasPrefix(typ, "fn(") || strings.HasPrefix(typ, "for<") {
			return nil, nil, "indirect"
		}
		traitID, localTrait := d.byPath[stripArgs(trait)]
		if localTrait && d.items[traitID].kind != "trait" {
			localTrait = false
		}
		tid, concrete := d.typeID(typ)
		opaque := !concrete && isOpaque(typ)
		switch {
		case localTrait && opaque:
			m := d.traitMethod(traitID, method)
			if m < 0 || !add(&static, m) {
				return nil, nil, "unresolved"
			}
			for _, impl := range d.traitOf[traitID] {
				if im := d.implMethod(impl, method); im >= 0 {
					add(&dispatch, im)
				}
			}
			return static, dispatch, "trait-dynamic"
		case localTrait:
			var found []int
			for _, impl := range d.traitOf[traitID] {
				it := d.items[impl]
				if (concrete && it.forID == tid) || (!concrete && it.forName == lastSegment(stripArgs(strings.TrimLeft(typ, "&* ")))) {
					if im := d.implMethod(impl, method); im >= 0 {
						found = append(found, im)
					}
				}
			}
			switch {
			case len(found) == 1 && add(&static, found[0]):
				return static, nil, "trait-impl"
			case len(found) > 1:
				return nil, nil, "unresolved" // impls of a generic trait for several arguments
			}
			if m := d.traitMethod(traitID, method); m >= 0 && add(&static, m) {
				return static, nil, "trait-default"
			}
			return nil, nil, "unresolved"
		case concrete:
			name := lastSegment(stripArgs(trait))
			var found []int
			for _, impl := range d.external[name] {
				if d.items[impl].forID == tid {
					if im := d.implMethod(impl, method); im >= 0 {
						found = append(found, im)
					}
				}
			}
			switch {
			case len(found) == 1 && add(&static, found[0]):
				return static, nil, "external-trait-impl"
			case len(found) > 1:
				// `impl From<A> for T` and `impl From<B> for T`: the
				// printed trait's arguments would tell them apart.
				return nil, nil, "unresolved"
			}
			return nil, nil, "external"
		}
		return nil, nil, "external"
	}
	if strings.HasPrefix(segs[0], "std") || strings.HasPrefix(segs[0], "core") || strings.HasPrefix(segs[0], "alloc") {
		return nil, nil, "external"
	}
	// `m::<impl T>::method`: an inherent impl written in module m.
	for i, s := range segs {
		if strings.HasPrefix(s, "<impl ") && i == len(segs)-2 {
			if tid, ok := d.typeID(strings.TrimSuffix(strings.TrimPrefix(s, "<impl "), ">")); ok {
				return d.inherentMethod(tid, method)
			}
			return nil, nil, "unresolved"
		}
	}
	clean := make([]string, len(segs))
	for i, s := range segs {
		clean[i] = stripArgs(s)
	}
	path := strings.Join(clean, "::")
	if id, ok := d.byPath[path]; ok {
		switch d.items[id].kind {
		case "function":
			if add(&static, id) {
				return static, nil, "function"
			}
			return nil, nil, "unresolved"
		case "struct", "enum", "union":
			return nil, nil, "construction" // a tuple struct built
		}
	}
	if len(clean) >= 2 {
		typePath := strings.Join(clean[:len(clean)-1], "::")
		if id, ok := d.byPath[typePath]; ok {
			switch d.items[id].kind {
			case "struct", "enum", "union", "type_alias":
				return d.inherentMethod(id, method)
			}
		}
	}
	if d.local(clean[0]) {
		return nil, nil, "unresolved"
	}
	return nil, nil, "external"
}

// inherentMethod is the method named name in the inherent impls of a type,
// or an enum's variant built.
func (d *docIndex) inherentMethod(tid int, name string) ([]endpoint, []endpoint, string) {
	for _, impl := range d.inherent[tid] {
		if im := d.implMethod(impl, name); im >= 0 {
			if e, ok := d.endpoint(im); ok {
				return []endpoint{e}, nil, "inherent"
			}
		}
	}
	if it := d.items[tid]; it != nil && it.kind == "enum" {
		return nil, nil, "construction"
	}
	return nil, nil, "unresolved"
}

// local reports whether a path's first segment names an item of the crate.
func (d *docIndex) local(first string) bool {
	_, ok := d.byPath[first]
	return ok
}

// typeID is the crate's type that a printed type names, through
// references.
func (d *docIndex) typeID(t string) (int, bool) {
	t = strings.TrimSpace(t)
	for {
		switch {
		case strings.HasPrefix(t, "&mut "):
			t = t[5:]
		case strings.HasPrefix(t, "&"):
			t = t[1:]
		default:
			id, ok := d.byPath[stripArgs(t)]
			if ok {
				switch d.items[id].kind {
				case "struct", "enum", "union":
					return id, true
				}
			}
			return -1, false
		}
	}
}

// isOpaque reports whether a printed type is a trait object, an opaque
// type or a type parameter: a receiver whose impl is not known statically.
func isOpaque(t string) bool {
	t = strings.TrimLeft(strings.TrimSpace(t), "&")
	t = strings.TrimPrefix(t, "mut ")
	switch {
	case strings.HasPrefix(t, "dyn "), strings.HasPrefix(t, "impl "), strings.HasPrefix(t, "(dyn "):
		return true
	case t == "Self":
		return true
	}
	// A type parameter: one identifier without a path.
	if strings.ContainsAny(t, ":<>[]() ,") {
		return false
	}
	return t != "" && t[0] >= 'A' && t[0] <= 'Z'
}

// qualified splits "<T as a::Trait<X>>" into T and a::Trait<X>.
func qualified(s string) (string, string) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	depth := 0
	for i := 0; i+4 <= len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			if s[i] == '>' && i > 0 && s[i-1] == '-' {
				continue
			}
			depth--
		case ' ':
			if depth == 0 && strings.HasPrefix(s[i:], " as ") {
				return s[:i], s[i+4:]
			}
		}
	}
	return s, ""
}

// stripArgs drops generic arguments from every segment of a path.
func stripArgs(p string) string {
	segs := splitPath(p)
	out := segs[:0]
	for _, s := range segs {
		if i := strings.IndexByte(s, '<'); i > 0 {
			s = s[:i]
		} else if i == 0 {
			continue // a `::<T>` segment
		}
		out = append(out, strings.TrimPrefix(strings.TrimSpace(s), "r#"))
	}
	return strings.Join(out, "::")
}

func lastSegment(p string) string {
	if i := strings.LastIndex(p, "::"); i >= 0 {
		return p[i+2:]
	}
	return p
}
