package export

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The CSV dialect neo4j-admin database import reads by default: fields
// separated by commas, quoted with double quotes, a quote inside a quoted
// field doubled (Neo4j 5 reads no backslash escapes unless told to with
// --legacy-style-quoting), arrays inside one field separated by
// arrayDelimiter. Strings are always quoted, so that an empty string stays
// an empty string (an empty unquoted field is no value: the property is
// not set, null in Cypher); numbers and booleans are not. A quoted field
// may hold line breaks, which the import reads with --multiline-fields.

// arrayDelimiter separates the elements of an array property inside its
// field (neo4j-admin's default --array-delimiter).
const arrayDelimiter = ';'

// csvRow builds one line of a CSV file.
type csvRow struct {
	buf    []byte
	fields int
	// invalid counts the strings written with bytes that are not UTF-8
	// (a stored text cut inside a character): the import reads UTF-8 and
	// Neo4j's strings are Unicode, so each such byte sequence is written
	// as U+FFFD.
	invalid int
}

func (r *csvRow) reset() { r.buf, r.fields = r.buf[:0], 0 }

func (r *csvRow) sep() {
	if r.fields > 0 {
		r.buf = append(r.buf, ',')
	}
	r.fields++
}

// str writes a string, quoted.
func (r *csvRow) str(s string) {
	r.sep()
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		r.invalid++
	}
	r.buf = appendQuoted(r.buf, s)
}

func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '"')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '"')
}

// raw writes a field that needs no quotes: a number, a boolean.
func (r *csvRow) raw(s string) {
	r.sep()
	r.buf = append(r.buf, s...)
}

func (r *csvRow) int(v int64) {
	r.sep()
	r.buf = strconv.AppendInt(r.buf, v, 10)
}

func (r *csvRow) boolean(v bool) {
	r.sep()
	r.buf = strconv.AppendBool(r.buf, v)
}

// null writes no value: the property is not set.
func (r *csvRow) null() { r.sep() }

// strs writes a string array, null when empty. It reports whether an
// element holds the array delimiter, which no quoting protects: the
// import splits it into two elements.
func (r *csvRow) strs(l []string) (split bool) {
	r.sep()
	if len(l) == 0 {
		return false
	}
	for _, s := range l {
		split = split || strings.IndexByte(s, arrayDelimiter) >= 0
	}
	j := strings.Join(l, string(arrayDelimiter))
	if !utf8.ValidString(j) {
		j = strings.ToValidUTF8(j, "\uFFFD")
		r.invalid++
	}
	r.buf = appendQuoted(r.buf, j)
	return split
}

// ints writes an integer array, null when empty.
func (r *csvRow) ints(l []int32) {
	r.sep()
	for i, v := range l {
		if i > 0 {
			r.buf = append(r.buf, arrayDelimiter)
		}
		r.buf = strconv.AppendInt(r.buf, int64(v), 10)
	}
}

// csvFile is one output file: its header line, then rows.
type csvFile struct {
	name string // in the output folder
	f    *os.File
	w    *bufio.Writer
	rows int
}

func createCSV(path, name string, header []string) (*csvFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", name, err)
	}
	c := &csvFile{name: name, f: f, w: bufio.NewWriterSize(f, 256<<10)}
	// Header fields are names and types of ours: letters, digits, ':',
	// '[', ']', '_'; none needs quotes.
	if _, err := c.w.WriteString(strings.Join(header, ",") + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("write %s: %w", name, err)
	}
	return c, nil
}

func (c *csvFile) write(r *csvRow) error {
	r.buf = append(r.buf, '\n')
	c.rows++
	if _, err := c.w.Write(r.buf); err != nil {
		return fmt.Errorf("write %s: %w", c.name, err)
	}
	return nil
}

func (c *csvFile) close() error {
	err := c.w.Flush()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", c.name, err)
	}
	return nil
}
