package export

// QuoteField is how a string field is written, for the tests of the
// package.
func QuoteField(s string) string {
	var r csvRow
	r.str(s)
	return string(r.buf)
}
