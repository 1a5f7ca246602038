package httpserver

import (
	"bytes"
	"context"
	"strconv"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
)

// REST tool answers reused from the cache shared with other servers
// (Options.AnswerCache): a call of a tool that reads the index alone is
// looked up under the backend's AnswerKey; on a miss its answer, status
// and body as sent, is stored when the backend says it may be
// (backend.CacheableAnswer). Errors are never stored. The MCP endpoint
// does the same with its own results (mcpserver/answers.go).
//
// A stored answer is the status, a newline, and the encoded answer
// (cachedAnswer: the headers line and the JSON body).

// restTransport is the REST API's part of the cache key.
const restTransport = "rest"

func (s *Server) cachedTool(ctx context.Context, name string, args map[string]any) (int, any, error) {
	cache := s.opts.AnswerCache
	key, ok, err := s.b.AnswerKey(ctx, name, args)
	if err == nil && ok {
		if v, hit := cache.Get(ctx, answercache.Key(restTransport, key)); hit {
			if status, enc, ok := decodeStored(v); ok {
				return status, cachedAnswer(enc), nil
			}
		}
	}
	res, err := s.b.CallTool(ctx, name, args)
	if err != nil {
		return 0, nil, err
	}
	status, ans := toolStatus(res), toolAnswer(name, res)
	if !ok || !backend.CacheableAnswer(key, res) {
		return status, ans, nil
	}
	enc, err := encodeAnswer(ans)
	if err != nil {
		return status, ans, nil
	}
	cache.Set(ctx, answercache.Key(restTransport, key), append(strconv.AppendInt(nil, int64(status), 10), append([]byte{'\n'}, enc...)...))
	return status, cachedAnswer(enc), nil
}

// decodeStored splits a stored answer into its status and encoded answer.
func decodeStored(v []byte) (int, []byte, bool) {
	i := bytes.IndexByte(v, '\n')
	if i < 0 {
		return 0, nil, false
	}
	status, err := strconv.Atoi(string(v[:i]))
	if err != nil || status < 200 || status > 599 || bytes.IndexByte(v[i+1:], '\n') < 0 {
		return 0, nil, false
	}
	return status, v[i+1:], true
}
