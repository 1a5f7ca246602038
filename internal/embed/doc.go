// Package embed turns texts into vectors for semantic search. An Embedder
// is chosen by configuration (Config: `gitnexus analyze --embeddings`,
// GITNEXUS_EMBEDDING_* variables, or the embeddings.json file in the
// gitnexus home): an OpenAI-compatible HTTP endpoint or a local ONNX model.
//
// Every vector an Embedder returns has unit length, so cosine similarity
// is a dot product. Identity names what produced the vectors (provider,
// model, dimensions): an index whose vectors have another identity is
// re-embedded, and a server whose configured embedder has another
// identity than the index falls back to BM25 and says so.
package embed
