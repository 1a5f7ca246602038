// Package repofiles decides which files of a repository are indexed: it
// lists them with git (or by walking a directory that is not a work tree,
// reading .gitignore files as git does), applies .gitnexusignore, and
// drops vendored trees, our own state and symlinks, counting each cause.
// The indexer reads the files it lists; the query side uses the same rules
// to tell which files an index covers (freshness checks, file watching).
package repofiles
