package graph

import "strings"

// SymbolID is the stable id of a code symbol: kind, file and qualified name.
// A suffix is added by the caller only where overloads share a qualified name.
func SymbolID(kind NodeKind, filePath, qualified string) string {
	return kind.String() + ":" + filePath + ":" + qualified
}

// FileID is the id of a File node.
func FileID(path string) string { return "File:" + path }

// FolderID is the id of a Folder node.
func FolderID(path string) string { return "Folder:" + path }

// PackageID is the id of a Package node; key is the language's name for the
// package (Go import path, Java or Python dotted name, or a directory).
func PackageID(key string) string { return "Package:" + key }

// KindOfID returns the kind encoded at the start of an id.
func KindOfID(id string) NodeKind {
	if i := strings.IndexByte(id, ':'); i > 0 {
		return ParseKind(id[:i])
	}
	return KindInvalid
}
