package rust

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Rust (modules.go, lookup.go, impls.go).
type rules struct{}

// Features: fields and methods live apart (`self.name` and `self.name()`
// are different members), so a called name is looked up as a function
// (Lookup sees the locals that hide it); a `let` binds from where it is
// written.
func (rules) Features() lang.Features {
	return lang.Features{MethodNamespace: true, OrderedBindings: true}
}

func (rules) ConfigNames() []string { return []string{"Cargo.toml"} }

func (rules) IsBuiltin(name string) bool { return isBuiltin(name) }

// IsBuiltinMember: methods of the standard library's types and traits
// that a receiver of unknown type most likely calls; such a call gets no
// name-only guess.
func (rules) IsBuiltinMember(name string) bool { return stdMethods[name] }

var stdMethods = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`new default clone clone_from to_string to_owned into from as_ref as_mut
		borrow borrow_mut iter iter_mut into_iter map filter filter_map flat_map collect fold for_each any all
		find position count sum max min rev zip enumerate skip take chain next peek last nth len is_empty
		push push_str pop insert remove get get_mut contains contains_key entry or_insert or_insert_with
		or_default extend append clear retain truncate sort sort_by sort_by_key dedup split join trim
		starts_with ends_with parse unwrap expect unwrap_or unwrap_or_else unwrap_or_default ok err ok_or
		ok_or_else and_then or_else is_some is_none is_ok is_err map_err cloned copied as_str as_bytes
		as_slice to_vec lock read write send recv fmt eq ne cmp partial_cmp hash drop deref deref_mut
		with_capacity capacity reserve keys values first split_at chars bytes lines format
		leading_zeros trailing_zeros count_ones count_zeros swap_bytes to_le to_be from_le from_be pow abs
		wrapping_add wrapping_sub wrapping_mul checked_add checked_sub checked_mul checked_div saturating_add
		saturating_sub overflowing_add is_power_of_two next_power_of_two as_ptr as_mut_ptr cast add sub
		offset read_unaligned write_unaligned copy_from copy_to is_null as_non_null_ptr len_utf8 to_ascii_lowercase
		to_ascii_uppercase to_lowercase to_uppercase is_ascii is_alphabetic is_numeric is_whitespace
		last_mut first_mut split_first split_last windows chunks iter_rev extend_from_slice drain
		swap take replace into_inner into_boxed_slice into_vec into_bytes into_string to_str to_bytes
		as_mut_slice as_slice_mut binary_search concat repeat find_map take_while skip_while step_by
		peekable fuse cycle flatten inspect copied by_ref partition unzip product flush write_all
		write_str read_to_string read_line display debug_struct debug_list debug_map field finish entries`) {
		stdMethods[n] = true
	}
}

// BindImports records an IMPORTS edge from the file to the file holding
// what each `use` declaration or `extern crate` reaches in the repository.
func (rules) BindImports(p *lang.Program, f *lang.File) {
	st := stateOf(f)
	if st == nil {
		return
	}
	for idx, imp := range f.Facts.Imports {
		if imp.Kind == lang.ImportModule {
			continue
		}
		mi := st.moduleAt(f, imp.Scope, 0)
		if imp.Scope >= 0 && f.Facts.Symbols[imp.Scope].Kind == graph.KindPackage {
			for _, in := range st.inline[f] {
				if in.sym == imp.Scope {
					mi = in
				}
			}
		}
		target := ""
		switch v := st.resolveImport(f, idx, mi); v.Kind {
		case lang.ValModule:
			if in := infoOf(v.Mod); in != nil {
				target = in.file.Facts.Path
			}
		case lang.ValSym:
			target = p.Sym(v.Sym).File.Facts.Path
		}
		if target != "" {
			f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: graph.FileID(target), Line: imp.Line})
		}
	}
}
