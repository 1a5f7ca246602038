package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
)

// Term counts and the query's budget. A full-text query computes BM25
// for every row one of its terms matches, each time over every phrase of
// the query, so its cost follows rows × phrases: one word that most
// symbols hold ("func" in every Go signature) made a query take 150 ms
// instead of 10, and a long question (a doc comment pasted as a query) of
// thirty everyday words took up to 800 ms on the Go standard library.
//
// The index therefore keeps the document count of every term held by more
// than a thousandth of its documents (search_common; the row with the
// empty term holds the number of documents), and a query keeps its words
// from the rarest up while the rows they hold, times their number, fit a
// budget. The words left out are the most common ones, which weigh least
// in BM25 (their inverse document frequency is lowest) and cost most. The
// rarest word always stays, and a word held by more than a tenth of a
// large index goes whenever a rarer one remains, whatever the budget.
//
// BenchmarkSearchQuestions chose the budget: on the Go standard library
// (239,504 documents), with 1,000 doc comments as questions, on a quiet
// machine, it cuts the p99 of a query from 161 ms to 15 ms (p50 from 43
// to 7 ms) while the documented function's MRR goes from 0.849 to 0.786
// (found in the first 10: 0.959 to 0.910). A budget of 100,000 kept more
// (MRR 0.816) but left the p99 at 17–22 ms; the cost is about 0.3 µs per
// row and phrase.

// queryBudget is the rows × phrases a query may cost before its most
// common words are left out.
var queryBudget = 50000

// A query word is left out (when a rarer one remains) when it is held by
// more than commonTermShare of the documents and by more than
// commonTermMinDocs of them: below that, ranking its rows costs a few
// milliseconds at most, and in a small repository a tenth of the
// documents is a handful, words that do tell them apart.
const (
	commonTermShare   = 0.10
	commonTermMinDocs = 5000
)

// termListShare and termListMin decide which terms the index lists with
// their counts: those held by more than a thousandth of the documents and
// by more than termListMin of them. A term that is not listed is held by
// at most listedAbove(docs) documents.
const (
	termListPerMille = 1
	termListMin      = 20
)

// listedAbove is the document count above which a term is listed.
func listedAbove(docs int) int {
	return max(docs*termListPerMille/1000, termListMin)
}

const createCommonTerms = `CREATE TABLE search_common (term TEXT PRIMARY KEY, doc INTEGER NOT NULL)`

// writeCommonTerms creates and fills search_common from the finished
// full-text index.
func writeCommonTerms(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx) // the temporary vocabulary table lives on one connection
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, createCommonTerms); err != nil {
		return fmt.Errorf("count search terms: %w", err)
	}
	return countCommonTerms(ctx, conn)
}

// execQuerier is a connection or a transaction: one connection, which the
// temporary vocabulary table needs.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// countCommonTerms fills the empty search_common.
func countCommonTerms(ctx context.Context, db execQuerier) error {
	var docs int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM search`).Scan(&docs); err != nil {
		return fmt.Errorf("count search documents: %w", err)
	}
	for _, q := range []string{
		`CREATE VIRTUAL TABLE temp.search_vocab USING fts5vocab(main, search, 'row')`,
		fmt.Sprintf(`INSERT INTO search_common VALUES ('', %d)`, docs),
		fmt.Sprintf(`INSERT INTO search_common SELECT term, doc FROM temp.search_vocab WHERE doc > %d`, listedAbove(docs)),
		`DROP TABLE temp.search_vocab`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("count search terms: %w", err)
		}
	}
	return nil
}

// termCount is one listed term.
type termCount struct {
	term string
	doc  int
}

// commonTerms is what a reader loaded of search_common: the listed terms
// sorted by term, so that a prefix's terms are one run.
type commonTerms struct {
	docs  int
	terms []termCount
}

// loadCommonTerms reads search_common; an index without it (written
// before it existed) leaves every word in.
func loadCommonTerms(db *sql.DB) commonTerms {
	var c commonTerms
	rows, err := db.Query(`SELECT term, doc FROM search_common ORDER BY term`)
	if err != nil {
		return commonTerms{}
	}
	defer rows.Close()
	for rows.Next() {
		var tc termCount
		if rows.Scan(&tc.term, &tc.doc) != nil {
			return commonTerms{}
		}
		if tc.term == "" {
			c.docs = tc.doc
		} else {
			c.terms = append(c.terms, tc)
		}
	}
	if rows.Err() != nil {
		return commonTerms{}
	}
	return c
}

// count estimates the documents a query word matches: its own count, or
// for a prefix the sum of the listed terms it starts; a word that is not
// listed counts as the most an unlisted term may hold.
func (c commonTerms) count(word string, prefix bool) int {
	i := sort.Search(len(c.terms), func(i int) bool { return c.terms[i].term >= word })
	if !prefix {
		if i < len(c.terms) && c.terms[i].term == word {
			return c.terms[i].doc
		}
		return listedAbove(c.docs)
	}
	n := 0
	for ; i < len(c.terms) && len(c.terms[i].term) >= len(word) && c.terms[i].term[:len(word)] == word; i++ {
		n += c.terms[i].doc
	}
	return max(n, listedAbove(c.docs))
}

// common reports whether a word held by n documents is held by more than
// commonTermShare of them.
func (c commonTerms) common(n int) bool {
	return n > commonTermMinDocs && float64(n) > commonTermShare*float64(c.docs)
}
