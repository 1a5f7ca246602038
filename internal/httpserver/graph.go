package httpserver

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/graph"
)

// The endpoints of the web view: the graph around a symbol, the
// communities and processes, a Cypher query drawn as a graph, and the
// history over time. Each decodes its parameters, calls one backend
// method and encodes the answer.

func (s *Server) routeGraph() {
	s.mux.HandleFunc("GET /api/v1/graph/neighbourhood", s.rest(s.neighbourhood))
	s.mux.HandleFunc("GET /api/v1/graph/communities", s.rest(flowList(s.b.CommunityMap)))
	s.mux.HandleFunc("GET /api/v1/graph/community", s.rest(s.community))
	s.mux.HandleFunc("GET /api/v1/graph/processes", s.rest(flowList(s.b.ProcessList)))
	s.mux.HandleFunc("GET /api/v1/graph/process", s.rest(s.process))
	s.mux.HandleFunc("POST /api/v1/cypher", s.rest(s.cypherView))
	s.mux.HandleFunc("GET /api/v1/history/timeline", s.cached(s.timeline))
	s.mux.HandleFunc("GET /api/v1/history/hotspots", s.cached(s.hotspots))
}

// graphGetPaths are the GET endpoints of routeGraph, for 405 answers.
var graphGetPaths = map[string]bool{
	"/api/v1/graph/neighbourhood": true, "/api/v1/graph/communities": true, "/api/v1/graph/community": true,
	"/api/v1/graph/processes": true, "/api/v1/graph/process": true,
	"/api/v1/history/timeline": true, "/api/v1/history/hotspots": true,
}

func (s *Server) neighbourhood(r *http.Request) (int, any, error) {
	q, err := queryParams(r.URL.RawQuery, "repo", "uid", "depth", "types", "minConfidence", "hideTests", "limit")
	if err != nil {
		return 0, nil, err
	}
	uid, opt, err := decodeNeighbourhood(q)
	if err != nil {
		return 0, nil, err
	}
	ans, err := s.b.Neighbourhood(r.Context(), q.Get("repo"), uid, opt)
	return http.StatusOK, ans, err
}

// flowList answers a GET that takes repo and limit (1 to
// analysis.MaxFlowList) with list's answer: the community map, the
// process list.
func flowList[A any](list func(ctx context.Context, repo string, limit int) (A, error)) restHandler {
	return func(r *http.Request) (int, any, error) {
		q, err := queryParams(r.URL.RawQuery, "repo", "limit")
		if err != nil {
			return 0, nil, err
		}
		limit, err := intParam(q, "limit", analysis.DefaultFlowList, 1, analysis.MaxFlowList)
		if err != nil {
			return 0, nil, err
		}
		ans, err := list(r.Context(), q.Get("repo"), limit)
		return http.StatusOK, ans, err
	}
}

func (s *Server) community(r *http.Request) (int, any, error) {
	q, err := queryParams(r.URL.RawQuery, "repo", "id", "limit")
	if err != nil {
		return 0, nil, err
	}
	id, err := requiredParam(q, "id", "a community's id from GET /api/v1/graph/communities")
	if err != nil {
		return 0, nil, err
	}
	limit, err := intParam(q, "limit", analysis.DefaultViewNodes, 1, analysis.MaxViewNodes)
	if err != nil {
		return 0, nil, err
	}
	ans, err := s.b.CommunityView(r.Context(), q.Get("repo"), id, limit)
	return http.StatusOK, ans, err
}

func (s *Server) process(r *http.Request) (int, any, error) {
	q, err := queryParams(r.URL.RawQuery, "repo", "id")
	if err != nil {
		return 0, nil, err
	}
	id, err := requiredParam(q, "id", "a process's id from GET /api/v1/graph/processes")
	if err != nil {
		return 0, nil, err
	}
	ans, err := s.b.ProcessSteps(r.Context(), q.Get("repo"), id)
	return http.StatusOK, ans, err
}

func (s *Server) cypherView(r *http.Request) (int, any, error) {
	var req struct {
		Repo   string         `json:"repo"`
		Query  string         `json:"query"`
		Params map[string]any `json:"params"`
		Limit  *float64       `json:"limit"`
	}
	if err := decodeInto(r, &req); err != nil {
		return 0, nil, err
	}
	if strings.TrimSpace(req.Query) == "" {
		return 0, nil, &backend.ArgError{Param: "query", Msg: "give a Cypher query, e.g. MATCH (f:Function) RETURN f LIMIT 10"}
	}
	args := map[string]any{}
	if req.Limit != nil {
		args["limit"] = *req.Limit
	}
	limit, err := intArg(args, "limit", backend.DefaultCypherViewRows, 1, backend.MaxCypherViewRows)
	if err != nil {
		return 0, nil, err
	}
	ref := req.Repo
	if ref == "" {
		ref = r.URL.Query().Get("repo")
	}
	ans, err := s.b.CypherView(r.Context(), ref, req.Query, req.Params, limit)
	return http.StatusOK, ans, err
}

// TimelineAnswer is GET /api/v1/history/timeline.
type TimelineAnswer struct {
	Repo string `json:"repo"`
	analysis.TimelineView
}

func (s *Server) timeline(r *http.Request) (int, any, error) {
	q, err := queryParams(r.URL.RawQuery, "repo", "branch")
	if err != nil {
		return 0, nil, err
	}
	out, err := s.b.HistoryCall(r.Context(), q.Get("repo"), func(h *backend.HistoryView) (any, error) {
		return TimelineAnswer{Repo: h.RepoID(), TimelineView: h.Timeline()}, nil
	})
	return http.StatusOK, out, err
}

// HotspotsAnswer is GET /api/v1/history/hotspots.
type HotspotsAnswer struct {
	Repo string `json:"repo"`
	analysis.HotspotsView
}

func (s *Server) hotspots(r *http.Request) (int, any, error) {
	q, err := queryParams(r.URL.RawQuery, "repo", "since", "until", "limit", "branch")
	if err != nil {
		return 0, nil, err
	}
	w, limit, err := decodeHotspots(q)
	if err != nil {
		return 0, nil, err
	}
	out, err := s.b.HistoryCall(r.Context(), q.Get("repo"), func(h *backend.HistoryView) (any, error) {
		return HotspotsAnswer{Repo: h.RepoID(), HotspotsView: h.Hotspots(w, limit)}, nil
	})
	return http.StatusOK, out, err
}

// queryParams parses a query string and refuses parameters the endpoint
// does not take (a misspelt one would otherwise be ignored) and
// parameters given twice.
func queryParams(raw string, known ...string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, &backend.ArgError{Param: "query string", Msg: err.Error()}
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ok := false
		for _, want := range known {
			ok = ok || k == want
		}
		if !ok {
			return nil, &backend.ArgError{Param: k, Msg: fmt.Sprintf("unknown parameter; this endpoint takes %s", strings.Join(known, ", "))}
		}
		if len(q[k]) > 1 {
			return nil, &backend.ArgError{Param: k, Msg: "given more than once"}
		}
	}
	return q, nil
}

// requiredParam is a parameter that must be given.
func requiredParam(q url.Values, name, what string) (string, error) {
	v := strings.TrimSpace(q.Get(name))
	if v == "" {
		return "", &backend.ArgError{Param: name, Msg: "missing: give " + what}
	}
	return v, nil
}

// intParam reads a whole-number parameter with a default and bounds.
func intParam(q url.Values, name string, def, lo, hi int) (int, error) {
	v, ok := q[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v[0]))
	if err != nil {
		return 0, &backend.ArgError{Param: name, Msg: fmt.Sprintf("%q is not a whole number", v[0])}
	}
	if n < lo || n > hi {
		return 0, &backend.ArgError{Param: name, Msg: fmt.Sprintf("%d is out of range [%d, %d]", n, lo, hi)}
	}
	return n, nil
}

// decodeNeighbourhood reads the parameters of GET
// /api/v1/graph/neighbourhood.
func decodeNeighbourhood(q url.Values) (string, analysis.NeighbourhoodOptions, error) {
	var opt analysis.NeighbourhoodOptions
	uid, err := requiredParam(q, "uid", "a node's id, e.g. Method:store/store.go:Store.Get")
	if err != nil {
		return "", opt, err
	}
	if opt.Depth, err = intParam(q, "depth", 1, 1, analysis.MaxNeighbourhood); err != nil {
		return "", opt, err
	}
	if opt.Limit, err = intParam(q, "limit", analysis.DefaultViewNodes, 1, analysis.MaxViewNodes); err != nil {
		return "", opt, err
	}
	if v, ok := q["types"]; ok {
		code := map[graph.EdgeType]bool{}
		var names []string
		for _, t := range analysis.CodeEdgeTypes() {
			code[t] = true
			names = append(names, t.String())
		}
		for _, name := range strings.Split(v[0], ",") {
			name = strings.ToUpper(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			t := graph.ParseEdgeType(name)
			if !code[t] {
				return "", opt, &backend.ArgError{Param: "types", Msg: fmt.Sprintf("%q is not a code edge type (types: %s)", name, strings.Join(names, ","))}
			}
			opt.Types = append(opt.Types, t)
		}
		if len(opt.Types) == 0 {
			return "", opt, &backend.ArgError{Param: "types", Msg: "empty: give edge types separated by commas, e.g. CALLS,IMPORTS, or leave it out for all"}
		}
	}
	if v, ok := q["minConfidence"]; ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(v[0]), 64)
		if err != nil || !(f >= 0 && f <= 1) { // NaN too
			return "", opt, &backend.ArgError{Param: "minConfidence", Msg: fmt.Sprintf("%q is not a number from 0 to 1", v[0])}
		}
		opt.MinConfidence = f
	}
	if v, ok := q["hideTests"]; ok {
		switch strings.TrimSpace(v[0]) {
		case "true", "1":
			opt.HideTests = true
		case "false", "0":
		default:
			return "", opt, &backend.ArgError{Param: "hideTests", Msg: fmt.Sprintf("%q: want true or false", v[0])}
		}
	}
	return uid, opt, nil
}

// decodeHotspots reads the parameters of GET /api/v1/history/hotspots.
func decodeHotspots(q url.Values) (analysis.DateWindow, int, error) {
	var w analysis.DateWindow
	var err error
	if w.Since, err = analysis.ParseDate("since", q.Get("since"), false); err != nil {
		return w, 0, err
	}
	if w.Until, err = analysis.ParseDate("until", q.Get("until"), true); err != nil {
		return w, 0, err
	}
	if !w.Since.IsZero() && !w.Until.IsZero() && !w.Since.Before(w.Until) {
		return w, 0, &backend.ArgError{Param: "until", Msg: fmt.Sprintf("%s is before since %s", q.Get("until"), q.Get("since"))}
	}
	limit, err := intParam(q, "limit", analysis.DefaultHotspots, 1, analysis.MaxHotspots)
	return w, limit, err
}
