// Package answercache keeps encoded tool answers in a cache that several
// `gitnexus serve` replicas share (Redis), so that a question one replica
// answered is not computed again by another while the index it was
// answered from is unchanged.
//
// The cache is an accelerator, never a dependency: Get and Set return no
// error, a cache that is down or slow answers "miss" within a short
// timeout, and after a failure it is not asked at all for a back-off
// period (1 s, doubling to 30 s), so that an outage costs the clients
// nothing but the cache's benefit.
//
// What a key names is the caller's business: the transports hash the
// transport's name with the backend's AnswerKey (the repository, the build
// of its index, the tool and its canonical arguments), so that an answer is
// only ever found for the same question about the same index.
package answercache

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Cache stores encoded answers by key. Implementations are safe for
// concurrent use and never fail a caller: a Get that cannot be answered is
// a miss, a Set that cannot be done is dropped.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool)
	Set(ctx context.Context, key string, val []byte)
}

// Key hashes the parts of a key (each length-prefixed, so that no two
// lists of parts share a key) into a fixed-size hex string.
func Key(parts ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Stats counts what a cache did since it was made.
type Stats struct {
	Hits   uint64 `json:"hits"`
	Misses uint64 `json:"misses"`
	Sets   uint64 `json:"sets"`
	// Errors are operations the cache's server failed or did not answer
	// in time (each a miss or a dropped Set for the caller).
	Errors uint64 `json:"errors"`
	// Skipped are operations not even tried: the server was down and
	// the back-off had not ended.
	Skipped uint64 `json:"skipped"`
	// Oversize are values not stored for being larger than the limit.
	Oversize uint64 `json:"oversize"`
}
