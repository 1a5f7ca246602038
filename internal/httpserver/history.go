package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/backend"
)

// The history endpoints: commits, the files and functions they changed, a
// file's commits, a function's source then and now, commit search and
// clustering. Their answers are cached (see answerCache).

func (s *Server) routeHistory() {
	s.mux.HandleFunc("POST /api/v1/semantic_search", s.cached(s.semanticSearch))
	s.mux.HandleFunc("GET /api/v1/commit/{hash}/files", s.cached(s.commitFiles))
	s.mux.HandleFunc("GET /api/v1/commit/{hash}/functions", s.cached(s.commitFunctions))
	s.mux.HandleFunc("POST /api/v1/commit/cluster", s.cached(s.commitCluster))
	s.mux.HandleFunc("GET /api/v1/file/{rest...}", s.cached(s.fileCommits))
	s.mux.HandleFunc("GET /api/v1/function/{rest...}", s.cached(s.functionSource))
}

// withHeaders is an answer with extra response headers (paging).
type withHeaders struct {
	headers map[string]string
	body    any
}

// cached answers from the cache when it can, else runs h through rest and
// keeps a successful answer. The key holds the repository's id and index
// generation, the method, the path, the query and the body.
func (s *Server) cached(h restHandler) http.HandlerFunc {
	inner := func(r *http.Request) (int, any, error) {
		var body []byte
		if r.Body != nil {
			var err error
			if body, err = io.ReadAll(r.Body); err != nil {
				return 0, nil, err
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		ref := r.URL.Query().Get("repo")
		if ref == "" && len(body) > 0 {
			var probe struct {
				Repo string `json:"repo"`
			}
			_ = json.Unmarshal(body, &probe)
			ref = probe.Repo
		}
		id, gen, err := s.b.Generation(r.Context(), ref)
		if err != nil {
			return 0, nil, err
		}
		if err := s.checkBranch(r, ref); err != nil {
			return 0, nil, err
		}
		key := fmt.Sprintf("%s\x00%d\x00%s\x00%s\x00%s\x00%s", id, gen, r.Method, r.URL.EscapedPath(), r.URL.RawQuery, body)
		if status, b, ok := s.cache.get(key); ok {
			return status, cachedAnswer(b), nil
		}
		status, ans, err := h(r)
		if err != nil {
			return 0, nil, err
		}
		enc, err := encodeAnswer(ans)
		if err != nil {
			return 0, nil, err
		}
		s.cache.put(key, status, enc)
		return status, cachedAnswer(enc), nil
	}
	return s.rest(inner)
}

// cachedAnswer is an answer already encoded: the headers line, then the
// JSON body.
type cachedAnswer []byte

func encodeAnswer(ans any) ([]byte, error) {
	headers := map[string]string{}
	if wh, ok := ans.(withHeaders); ok {
		headers, ans = wh.headers, wh.body
	}
	h, err := json.Marshal(headers)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(ans)
	if err != nil {
		return nil, err
	}
	return append(append(h, '\n'), b...), nil
}

// write sends an encoded answer.
func (c cachedAnswer) write(w http.ResponseWriter, status int) {
	i := bytes.IndexByte(c, '\n')
	var headers map[string]string
	_ = json.Unmarshal(c[:i], &headers)
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	// Two writes: appending the newline to c would write into the spare
	// capacity of bytes the cache shares between concurrent requests.
	w.Write(c[i+1:])
	w.Write([]byte{'\n'})
}

func (s *Server) semanticSearch(r *http.Request) (int, any, error) {
	args, err := decodeBody(r)
	if err != nil {
		return 0, nil, err
	}
	query, _ := args["query"].(string)
	if strings.TrimSpace(query) == "" {
		return 0, nil, &backend.ArgError{Param: "query", Msg: "give the words to search the commits for"}
	}
	topK, err := intArg(args, "top_k", 10, 1, 100)
	if err != nil {
		return 0, nil, err
	}
	out, err := s.b.HistoryCall(r.Context(), repoRef(r, args), func(h *backend.HistoryView) (any, error) {
		found, err := h.SearchCommits(r.Context(), query, topK)
		if err != nil {
			return nil, err
		}
		// The body stays a plain list; how it was ranked goes in headers.
		return withHeaders{headers: map[string]string{"X-Ranking": found.Ranking, "X-Ranking-Note": asciiHeader(found.Note)},
			body: found.Hits}, nil
	})
	return http.StatusOK, out, err
}

func (s *Server) commitFiles(r *http.Request) (int, any, error) {
	return s.commitAnswer(r, func(h *backend.HistoryView, i int, filter string) any {
		return map[string]any{"commit": h.X.Commit(i).Hash, "files": h.CommitFiles(i, filter)}
	})
}

func (s *Server) commitFunctions(r *http.Request) (int, any, error) {
	return s.commitAnswer(r, func(h *backend.HistoryView, i int, filter string) any {
		return h.CommitFunctions(i, filter)
	})
}

// commitAnswer answers about the commit {hash} of the request, narrowed to
// the file ?filter_file= when given.
func (s *Server) commitAnswer(r *http.Request, answer func(h *backend.HistoryView, commit int, filter string) any) (int, any, error) {
	filter, err := optionalPath(r.URL.Query().Get("filter_file"))
	if err != nil {
		return 0, nil, err
	}
	out, err := s.b.HistoryCall(r.Context(), r.URL.Query().Get("repo"), func(h *backend.HistoryView) (any, error) {
		i, err := h.Commit(r.Context(), r.PathValue("hash"))
		if err != nil {
			return nil, err
		}
		return answer(h, i, filter), nil
	})
	return http.StatusOK, out, err
}

// FileCommit is one commit of GET /api/v1/file/{path}/commits.
type FileCommit struct {
	Hash       string `json:"hash"`
	Message    string `json:"message"`
	Author     string `json:"author"`
	Time       string `json:"time"`
	ChangeType string `json:"change_type"`
	Path       string `json:"path"`
	Additions  int    `json:"additions"`
	Deletions  int    `json:"deletions"`
}

func (s *Server) fileCommits(r *http.Request) (int, any, error) {
	rest := r.PathValue("rest")
	p, ok := strings.CutSuffix(rest, "/commits")
	if !ok {
		return 0, nil, errNotFound
	}
	q := r.URL.Query()
	args := map[string]any{}
	for _, k := range []string{"limit", "offset"} {
		if v := q.Get(k); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return 0, nil, &backend.ArgError{Param: k, Msg: fmt.Sprintf("%q is not a whole number", v)}
			}
			args[k] = float64(n)
		}
	}
	limit, err := intArg(args, "limit", analysis.DefaultHistoryLimit, 1, analysis.MaxHistoryLimit)
	if err != nil {
		return 0, nil, err
	}
	offset, err := intArg(args, "offset", 0, 0, 1<<30)
	if err != nil {
		return 0, nil, err
	}
	var w analysis.DateWindow
	if w.Since, err = analysis.ParseDate("since", q.Get("since"), false); err != nil {
		return 0, nil, err
	}
	if w.Until, err = analysis.ParseDate("until", q.Get("until"), true); err != nil {
		return 0, nil, err
	}
	out, err := s.b.HistoryCall(r.Context(), q.Get("repo"), func(h *backend.HistoryView) (any, error) {
		rel, err := safeRepoPath(h.RepoPath(), p)
		if err != nil {
			return nil, err
		}
		res, err := h.FileCommits(rel, w, offset, limit)
		if err != nil {
			return nil, err
		}
		list := make([]FileCommit, 0, len(res.Commits))
		for _, c := range res.Commits {
			i := h.X.CommitIndex(c.Hash)
			list = append(list, FileCommit{Hash: c.Hash, Message: h.X.Commit(i).Message, Author: c.Author, Time: c.Date,
				ChangeType: c.ChangeType, Path: c.Path, Additions: c.Additions, Deletions: c.Deletions})
		}
		headers := map[string]string{"X-Total-Count": strconv.Itoa(res.Total), "X-Offset": strconv.Itoa(offset), "X-Limit": strconv.Itoa(limit)}
		if res.Truncated {
			headers["X-Next-Offset"] = strconv.Itoa(res.NextOffset)
		}
		return withHeaders{headers: headers, body: list}, nil
	})
	return http.StatusOK, out, err
}

func (s *Server) functionSource(r *http.Request) (int, any, error) {
	id, ok := strings.CutSuffix(r.PathValue("rest"), "/source")
	if !ok || id == "" {
		return 0, nil, errNotFound
	}
	commit := r.URL.Query().Get("commit_hash")
	out, err := s.b.HistoryCall(r.Context(), r.URL.Query().Get("repo"), func(h *backend.HistoryView) (any, error) {
		return h.FunctionSource(r.Context(), id, commit)
	})
	return http.StatusOK, out, err
}

func (s *Server) commitCluster(r *http.Request) (int, any, error) {
	var req struct {
		Commits []backend.ClusterInput `json:"commits"`
		File    string                 `json:"file"`
		Repo    string                 `json:"repo"`
	}
	if err := decodeInto(r, &req); err != nil {
		return 0, nil, err
	}
	if (len(req.Commits) == 0) == (req.File == "") {
		return 0, nil, &backend.ArgError{Param: "commits", Msg: "give commits ([{hash, message}]) or file (a path), one of them"}
	}
	ref := req.Repo
	if ref == "" {
		ref = r.URL.Query().Get("repo")
	}
	out, err := s.b.HistoryCall(r.Context(), ref, func(h *backend.HistoryView) (any, error) {
		in := req.Commits
		if req.File != "" {
			rel, err := safeRepoPath(h.RepoPath(), req.File)
			if err != nil {
				return nil, err
			}
			if in, err = h.FileCommitInputs(rel); err != nil {
				return nil, err
			}
		}
		clusters, err := h.ClusterCommits(in)
		if err != nil {
			return nil, err
		}
		return map[string]any{"clusters": clusters}, nil
	})
	return http.StatusOK, out, err
}

// decodeInto reads a JSON object body into v, refusing unknown fields.
func decodeInto(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("%w: send Content-Type: application/json, not %q", errBadBody, ct)
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if err == io.EOF {
			return fmt.Errorf("%w: the body must be a JSON object", errBadBody)
		}
		return fmt.Errorf("%w: %v", errBadBody, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: the body must hold one JSON object", errBadBody)
	}
	return nil
}

func repoRef(r *http.Request, args map[string]any) string {
	if v, ok := args["repo"].(string); ok && v != "" {
		return v
	}
	return r.URL.Query().Get("repo")
}

// intArg reads a whole-number argument with a default and bounds.
func intArg(args map[string]any, name string, def, lo, hi int) (int, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) {
		return 0, &backend.ArgError{Param: name, Msg: fmt.Sprintf("want a whole number, got %v", v)}
	}
	if n := int(f); n < lo || n > hi {
		return 0, &backend.ArgError{Param: name, Msg: fmt.Sprintf("%d is out of range [%d, %d]", n, lo, hi)}
	}
	return int(f), nil
}

// encodedEscape finds percent-encodings left after decoding: a doubly
// encoded path.
var encodedEscape = regexp.MustCompile(`%[0-9a-fA-F]{2}`)

// checkRelPath refuses what could leave the repository: absolute paths,
// drive letters, backslashes, NUL, "." and ".." segments, empty segments,
// and percent-encodings that survived decoding.
func checkRelPath(p string) error {
	bad := func(why string) error {
		return &backend.ArgError{Param: "path", Msg: fmt.Sprintf("%q is not a path inside the repository: %s", p, why)}
	}
	switch {
	case p == "":
		return bad("it is empty")
	case strings.ContainsAny(p, "\\\x00"):
		return bad("it holds a backslash or NUL")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || (len(p) > 1 && p[1] == ':'):
		return bad("it is absolute")
	case encodedEscape.MatchString(p):
		return bad("it is percent-encoded twice")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return bad("it has an empty, . or .. segment")
		}
	}
	return nil
}

// safeRepoPath checks a repository-relative path and, when the file
// exists in the working tree, that it does not lead outside the
// repository through a symlink.
func safeRepoPath(root, p string) (string, error) {
	if err := checkRelPath(p); err != nil {
		return "", err
	}
	full := filepath.Join(root, filepath.FromSlash(p))
	if _, err := os.Lstat(full); err == nil {
		realRoot, err1 := filepath.EvalSymlinks(root)
		real, err2 := filepath.EvalSymlinks(full)
		if err1 != nil || err2 != nil {
			return "", &backend.ArgError{Param: "path", Msg: fmt.Sprintf("%q cannot be resolved inside the repository", p)}
		}
		if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", &backend.ArgError{Param: "path", Msg: fmt.Sprintf("%q leads outside the repository (a symlink)", p)}
		}
	}
	return path.Clean(p), nil
}

// optionalPath checks an optional repository-relative path parameter.
func optionalPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	if err := checkRelPath(p); err != nil {
		return "", err
	}
	return p, nil
}

// asciiHeader makes s a valid header value: control and non-ASCII
// characters become '?'.
func asciiHeader(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	return string(b)
}

// checkBranch takes ?branch=all (seed 003's cross-branch history) when the
// index holds every branch, where the answers already cover them, and
// refuses it otherwise, or any other value, rather than ignoring it.
func (s *Server) checkBranch(r *http.Request, ref string) error {
	v, ok := r.URL.Query()["branch"]
	if !ok {
		return nil
	}
	if len(v) != 1 || v[0] != "all" {
		return &backend.ArgError{Param: "branch", Msg: fmt.Sprintf("%q: the only value is all (the history of every branch)", strings.Join(v, ","))}
	}
	all, branch, err := s.b.HistoryBranches(r.Context(), ref)
	if err != nil || all {
		return err
	}
	if branch == "" {
		branch = "HEAD"
	}
	return &backend.ArgError{Param: "branch", Msg: fmt.Sprintf("all: this index holds the first-parent history of %s only; "+
		"run `gitnexus analyze --all-branches` to index every branch", branch)}
}
