package store

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkSearchQuestions times full-text queries that read like
// questions about the code: the doc comments of every 7th documented
// function or method of an existing index (GITNEXUS_BENCH_INDEX, the path
// of a graph.db, e.g. the Go standard library's). It reports the p50 and
// p99 of one query besides the mean, and how well the documented function
// itself ranks (MRR, and the share of questions finding it in the first
// 10): leaving words out must not cost that.
func BenchmarkSearchQuestions(b *testing.B) {
	path := os.Getenv("GITNEXUS_BENCH_INDEX")
	if path == "" {
		b.Skip("GITNEXUS_BENCH_INDEX names no index")
	}
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	rows, err := r.db.QueryContext(ctx, `SELECT rid, doc FROM node WHERE kind IN ('Function', 'Method') AND doc != '' ORDER BY rid`)
	if err != nil {
		b.Fatal(err)
	}
	var questions []string
	var authors []int64 // the function each question documents
	for k := 0; rows.Next(); k++ {
		var rid int64
		var doc string
		if err := rows.Scan(&rid, &doc); err != nil {
			b.Fatal(err)
		}
		if k%7 == 0 && len(strings.Fields(doc)) >= 3 && len(questions) < 1000 {
			questions = append(questions, doc)
			authors = append(authors, rid)
		}
	}
	rows.Close()
	tries := 1 // GITNEXUS_BENCH_TRIES: time each question this many times, keep the fastest
	if v := os.Getenv("GITNEXUS_BENCH_TRIES"); v != "" {
		fmt.Sscan(v, &tries)
	}
	if v := os.Getenv("GITNEXUS_BENCH_BUDGET"); v != "" { // rows × phrases; try others
		fmt.Sscan(v, &queryBudget)
	}
	var took []time.Duration
	var rr float64 // reciprocal rank of the documented function
	top10 := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := questions[i%len(questions)]
		var hits []SearchHit
		best := time.Duration(1 << 62)
		for try := 0; try < tries; try++ {
			start := time.Now()
			h, err := r.Search(ctx, q, 200)
			if err != nil {
				b.Fatal(err)
			}
			hits, best = h, min(best, time.Since(start))
		}
		took = append(took, best)
		for k, h := range hits {
			if h.Rid == authors[i%len(questions)] {
				rr += 1 / float64(k+1)
				if k < 10 {
					top10++
				}
				break
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(rr/float64(b.N), "MRR")
	b.ReportMetric(float64(top10)/float64(b.N), "hit@10")
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}
