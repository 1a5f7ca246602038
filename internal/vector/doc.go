// Package vector holds embedding vectors compactly and finds the nearest
// ones to a query: int8 codes with one scale per vector (a quarter of the
// memory of float32, cosine similarity within about 0.01 of the exact
// one), an exact scan for small sets, and a hierarchical navigable small
// world graph (HNSW) for large ones, built deterministically and encoded so
// that servers load it instead of building it.
package vector

// ExactLimit is the number of vectors from which an index links them into
// an HNSW instead of scanning them all: below it an exact scan answers
// within a few milliseconds (bench/retrieval/RESULTS.md).
const ExactLimit = 10000
