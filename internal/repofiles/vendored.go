package repofiles

import "strings"

// vendoredDirs are directory names whose trees are third-party code.
var vendoredDirs = map[string]bool{"vendor": true, "node_modules": true, "third_party": true}

// IsVendoredDir reports whether a directory of this name holds vendored
// code that analyze skips (vendor/, node_modules/, third_party/).
func IsVendoredDir(name string) bool { return vendoredDirs[name] }

// inVendoredTree reports whether rel lies below a vendored directory.
func inVendoredTree(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		if vendoredDirs[p] {
			return true
		}
	}
	return false
}
