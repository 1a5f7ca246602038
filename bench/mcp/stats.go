package main

import (
	"math"
	"sort"
)

// Latency summarises the measured calls of one tool, in milliseconds.
type Latency struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// summarise computes nearest-rank percentiles: pXX is the smallest value
// that at least XX% of the calls did not exceed.
func summarise(ms []float64) Latency {
	if len(ms) == 0 {
		return Latency{}
	}
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	rank := func(p float64) float64 {
		i := int(math.Ceil(p/100*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return Latency{N: len(s), P50: rank(50), P90: rank(90), P99: rank(99), Max: s[len(s)-1], Mean: sum / float64(len(s))}
}
