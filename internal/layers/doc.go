// Package layers has no code. Its test checks that the imports between
// gitnexus's packages are the ones the package map in docs/architecture.md
// lists, and that the query side does not depend on the indexer.
package layers
