package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Common terms. A word that most symbols hold somewhere ("func" in every
// Go signature, "const", "int", "syscall" on the Go standard library)
// ranks almost nothing, yet a full-text query spends its time on it:
// BM25 is computed for every row a term matches, so one such word made a
// query take 150 ms instead of 10. The index keeps the document count of
// every term held by more than 1% of the documents (search_common; the
// row with the empty term holds the number of documents), and a query
// leaves out the words held by more than a tenth of them as long as a
// rarer word remains.

// A query word is left out (when a rarer one remains) when it is held by
// more than commonTermShare of the documents and by more than
// commonTermMinDocs of them: below that, ranking its rows costs a few
// milliseconds at most, and in a small repository a tenth of the
// documents is a handful, words that do tell them apart. The index lists
// the terms above a tenth of the share.
const (
	commonTermShare   = 0.10
	commonTermMinDocs = 5000
)

const createCommonTerms = `CREATE TABLE search_common (term TEXT PRIMARY KEY, doc INTEGER NOT NULL)`

// writeCommonTerms fills search_common from the finished full-text index.
func writeCommonTerms(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx) // the temporary vocabulary table lives on one connection
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, q := range []string{
		createCommonTerms,
		`CREATE VIRTUAL TABLE temp.search_vocab USING fts5vocab(main, search, 'row')`,
		`INSERT INTO search_common VALUES ('', (SELECT count(*) FROM search))`,
		`INSERT INTO search_common SELECT term, doc FROM temp.search_vocab
			WHERE doc * 100 > (SELECT doc FROM search_common WHERE term = '')`,
		`DROP TABLE temp.search_vocab`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("count common search terms: %w", err)
		}
	}
	return nil
}

// commonTerms is what a reader loaded of search_common.
type commonTerms struct {
	docs  int
	terms map[string]int
}

// loadCommonTerms reads search_common; an index without it (written
// before it existed) leaves every word in.
func loadCommonTerms(db *sql.DB) commonTerms {
	c := commonTerms{terms: map[string]int{}}
	rows, err := db.Query(`SELECT term, doc FROM search_common`)
	if err != nil {
		return c
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var n int
		if rows.Scan(&t, &n) != nil {
			return commonTerms{terms: map[string]int{}}
		}
		if t == "" {
			c.docs = n
		} else {
			c.terms[t] = n
		}
	}
	return c
}

// count is a lower bound of the documents a query word matches: its own
// count, or for a prefix the counts of the listed terms it starts.
func (c commonTerms) count(word string, prefix bool) int {
	if !prefix {
		return c.terms[word]
	}
	n := 0
	for t, d := range c.terms {
		if strings.HasPrefix(t, word) {
			n += d
		}
	}
	return n
}

// common reports whether a query word is held by more than
// commonTermShare of the documents.
func (c commonTerms) common(word string, prefix bool) bool {
	if c.docs == 0 {
		return false
	}
	n := c.count(word, prefix)
	return n > commonTermMinDocs && float64(n) > commonTermShare*float64(c.docs)
}
