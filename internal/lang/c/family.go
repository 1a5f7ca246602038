package c

import "gitnexus.dev/gitnexus/internal/lang"

// C and C++ are resolved as one program: C++ code calls C functions
// through headers (`extern "C"`), and whether a `.h` file is C or C++ is
// decided by its content. The C++ language joins the family at init with
// JoinFamily; its rules then resolve every file of the family and hand C
// files back to OwnRules. Without C++ (this package alone), C files are
// resolved by C's own rules.
var family lang.Rules = rules{}

// JoinFamily makes r the rules that resolve C files together with the
// files of r's language. It is called from an init function.
func JoinFamily(r lang.Rules) { family = r }

// OwnRules are C's own rules: includes resolved for every file of the
// program (Organize), names looked up the way C links them (Lookup).
func OwnRules() lang.Rules { return rules{} }

// Sees returns the files f includes, directly or transitively, and f
// itself, once OwnRules' Organize has run; nil before.
func Sees(f *lang.File) map[*lang.File]bool {
	st := stateOf(f)
	if st == nil {
		return nil
	}
	return st.sees(f)
}

// IsCPlusPlusHeader reports whether a .h file is written in C++ (a class,
// namespace or template declared, or `::` used outside comments).
func IsCPlusPlusHeader(path string, src []byte) bool { return isCPlusPlusHeader(path, src) }
