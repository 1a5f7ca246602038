package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/registry"
)

// The REST API: JSON in and out. Errors are {"error": "<message>"} with a
// status that says whose fault it is; bad input is never a 500.

// restHandler answers one REST request with a value to encode, or an error.
type restHandler func(r *http.Request) (status int, body any, err error)

// rest wraps a handler: the per-request timeout, the body limit, and the
// translation of errors into statuses.
func (s *Server) rest(h restHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
		}
		status, body, err := h(r)
		if err != nil {
			status, msg := statusOf(err)
			if ctx.Err() == context.DeadlineExceeded {
				status, msg = http.StatusGatewayTimeout, fmt.Sprintf("the request took longer than %s and was stopped", s.opts.RequestTimeout)
			}
			writeError(w, status, msg)
			return
		}
		if ca, ok := body.(cachedAnswer); ok {
			ca.write(w, status)
			return
		}
		writeJSON(w, status, body)
	}
}

// statusOf maps an error to its HTTP status and message.
func statusOf(err error) (int, string) {
	var (
		argErr    *backend.ArgError
		notFound  *backend.NotFoundError
		ambPath   *backend.AmbiguousPathError
		inputErr  *analysis.InputError
		staleErr  *analysis.StaleError
		cypherErr *cypher.Error
		tooBig    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	msg := err.Error()
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes", tooBig.Limit)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, errBadBody):
		return http.StatusBadRequest, msg
	case errors.As(err, &argErr), errors.As(err, &inputErr), errors.As(err, &cypherErr):
		return http.StatusBadRequest, msg
	case errors.Is(err, backend.ErrReadOnly):
		return http.StatusForbidden, msg
	case errors.Is(err, backend.ErrNoWorkTree):
		return http.StatusNotImplemented, msg // a replica of the shared store: no checkout
	case errors.Is(err, backend.ErrUnknownTool), errors.As(err, &notFound),
		errors.Is(err, registry.ErrNotFound), errors.Is(err, registry.ErrNoRepos), errors.Is(err, registry.ErrNotIndexed), errors.Is(err, errNotFound):
		return http.StatusNotFound, msg
	case errors.Is(err, registry.ErrAmbiguous), errors.As(err, &staleErr), errors.As(err, &ambPath):
		return http.StatusConflict, msg
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, msg
	}
	return http.StatusInternalServerError, msg
}

var (
	errBadBody  = errors.New("bad request body")
	errNotFound = errors.New("not found")
)

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encode the answer: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// decodeBody reads a JSON object body (an empty body is an empty object).
func decodeBody(r *http.Request) (map[string]any, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		// Requiring JSON also makes a browser ask first (CORS preflight)
		// before a page on another origin can post here.
		return nil, fmt.Errorf("%w: send Content-Type: application/json (curl: -H 'Content-Type: application/json'), not %q", errBadBody, ct)
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return map[string]any{}, nil
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: the body must be a JSON object: %v", errBadBody, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: the body must hold one JSON object", errBadBody)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: the body must be a JSON object, not null", errBadBody)
	}
	return m, nil
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	h := map[string]any{"status": "ok", "version": s.opts.Version, "repos": len(s.b.Repos())}
	if st, ok := s.opts.AnswerCache.(interface{ Stats() answercache.Stats }); ok {
		h["answerCache"] = st.Stats()
	}
	writeJSON(w, http.StatusOK, h)
}

func (s *Server) repos(r *http.Request) (int, any, error) {
	return http.StatusOK, map[string]any{"repos": s.b.Repos()}, nil
}

// ToolAnswer is the REST form of a tool's result.
type ToolAnswer struct {
	Tool     string `json:"tool"`
	Result   any    `json:"result"`
	Markdown string `json:"markdown"`
}

// tool runs POST /api/v1/tools/{name}: the body holds the tool's
// arguments; ?repo= selects the repository when the body does not.
func (s *Server) tool(r *http.Request) (int, any, error) {
	name := r.PathValue("name")
	if _, ok := backend.LookupTool(name); !ok {
		_, err := s.b.CallTool(r.Context(), name, nil) // the backend's message lists the tools
		return 0, nil, err
	}
	args, err := decodeBody(r)
	if err != nil {
		return 0, nil, err
	}
	if repo := r.URL.Query().Get("repo"); repo != "" {
		if _, ok := args["repo"]; !ok {
			args["repo"] = repo
		}
	}
	if s.opts.AnswerCache != nil {
		return s.cachedTool(r.Context(), name, args)
	}
	res, err := s.b.CallTool(r.Context(), name, args)
	if err != nil {
		return 0, nil, err
	}
	return toolStatus(res), toolAnswer(name, res), nil
}

func toolStatus(res *backend.Result) int {
	if res.Ambiguous {
		return http.StatusConflict
	}
	return http.StatusOK
}

func toolAnswer(name string, res *backend.Result) ToolAnswer {
	return ToolAnswer{Tool: name, Result: res.Structured(), Markdown: res.Markdown()}
}
