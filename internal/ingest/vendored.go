package ingest

// IsVendoredDir reports whether a directory of this name holds vendored
// code that analyze skips (vendor/, node_modules/, third_party/).
func IsVendoredDir(name string) bool { return vendoredDirs[name] }
