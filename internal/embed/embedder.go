package embed

import (
	"context"
	"math"
)

// Embedder turns texts into unit-length vectors.
type Embedder interface {
	// Embed returns one vector of Dimensions() floats per text, in order.
	// Texts may be many; providers batch them as they need.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Dimensions is the length of every vector.
	Dimensions() int
	// Identity names what produced the vectors: vectors of two embedders
	// are comparable only when their identities are equal.
	Identity() string
	// Close releases what the embedder holds (a model session, idle
	// connections).
	Close() error
}

// Normalize scales v to unit length in place and returns it; a zero vector
// stays zero.
func Normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
	return v
}
