package httpserver

import (
	"net/http"

	"gitnexus.dev/gitnexus/internal/mcpserver"
)

// asciiResponses writes h's responses (JSON, or JSON in server-sent events)
// with non-ASCII characters escaped, as the stdio server does; see
// mcpserver.ASCIIWriter for why.
func asciiResponses(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&asciiResponseWriter{ResponseWriter: w, ascii: mcpserver.ASCIIWriter{W: w}}, r)
	})
}

type asciiResponseWriter struct {
	http.ResponseWriter
	ascii mcpserver.ASCIIWriter
}

func (w *asciiResponseWriter) Write(p []byte) (int, error) { return w.ascii.Write(p) }

// Flush sends what was written so far, for event streams.
func (w *asciiResponseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *asciiResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
