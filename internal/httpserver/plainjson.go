package httpserver

import (
	"bufio"
	"bytes"
	"net/http"
	"strconv"
	"strings"
)

// plainJSON lets a client that posts JSON-RPC to /api/mcp without
// accepting an event stream (`curl -H 'Content-Type: application/json'`)
// get its answer as plain JSON. The MCP transport requires such a POST to
// accept both application/json and text/event-stream and answers with a
// stream; for a POST that does not accept the stream, the request goes on
// accepting both, and the stream's messages come back as one JSON value
// (an array when there are several). Clients that accept the stream, and
// GET streams, are untouched; sessions are the same either way.
func plainJSON(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept := r.Header.Get("Accept")
		if r.Method != http.MethodPost || strings.Contains(accept, "text/event-stream") {
			h.ServeHTTP(w, r)
			return
		}
		r = r.Clone(r.Context())
		r.Header.Set("Accept", "application/json, text/event-stream")
		rec := &bufferedResponse{header: http.Header{}, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		body := rec.body.Bytes()
		if strings.HasPrefix(rec.header.Get("Content-Type"), "text/event-stream") {
			body = eventsAsJSON(body)
			w.Header().Set("Content-Type", "application/json")
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.status)
		w.Write(body) //nolint:errcheck // the client went away
	})
}

// bufferedResponse keeps a response to rewrite it.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (r *bufferedResponse) Header() http.Header { return r.header }
func (r *bufferedResponse) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
func (r *bufferedResponse) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}
func (r *bufferedResponse) Flush() {}

// eventsAsJSON turns an event stream's data into JSON: the one message, or
// an array of them.
func eventsAsJSON(stream []byte) []byte {
	var msgs [][]byte
	var cur []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 64*1024), len(stream)+1)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if cur != nil {
				cur = append(cur, '\n')
			}
			cur = append(cur, d...)
		case len(line) == 0 && cur != nil:
			msgs, cur = append(msgs, cur), nil
		}
	}
	if cur != nil {
		msgs = append(msgs, cur)
	}
	if len(msgs) == 1 {
		return append(msgs[0], '\n')
	}
	return append(append([]byte("["), bytes.Join(msgs, []byte(","))...), ']', '\n')
}
