package mcpserver

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
)

// Tool answers reused from a cache that several servers share: a call of
// a tool that reads the index alone is looked up under the backend's
// AnswerKey, and its result stored there when the backend says it may be
// (backend.CacheableAnswer). Failed calls are never stored. A reused
// answer's index object says how fresh the index was when it was first
// computed (backend/answerkey.go).

// transport is this transport's part of the cache key: the REST API
// caches answers of its own shape under its own name.
const transport = "mcp"

// cachedResult is a tool result as the cache keeps it.
type cachedResult struct {
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured,omitempty"`
}

// cachedCall answers a call from the cache, or runs it and stores the
// result.
func cachedCall(ctx context.Context, b *backend.Backend, cache answercache.Cache, name string, args map[string]any) (*mcp.CallToolResult, error) {
	key, ok, err := b.AnswerKey(ctx, name, args)
	if err != nil || !ok {
		return call(ctx, b, name, args) // the call reports err itself
	}
	ck := answercache.Key(transport, key)
	if v, hit := cache.Get(ctx, ck); hit {
		if out, err := decodeResult(v); err == nil {
			return out, nil
		}
	}
	out, res, err := callResult(ctx, b, name, args)
	if err != nil || res == nil || !backend.CacheableAnswer(key, res) {
		return out, err
	}
	enc, err := encodeResult(out)
	if err != nil {
		return out, nil
	}
	cache.Set(ctx, ck, enc)
	// The same bytes as a later hit sends.
	if again, err := decodeResult(enc); err == nil {
		return again, nil
	}
	return out, nil
}

func encodeResult(out *mcp.CallToolResult) ([]byte, error) {
	var c cachedResult
	if len(out.Content) != 1 {
		return nil, errors.New("not one content")
	}
	tc, ok := out.Content[0].(*mcp.TextContent)
	if !ok {
		return nil, errors.New("not text content")
	}
	c.Text = tc.Text
	if out.StructuredContent != nil {
		s, err := json.Marshal(out.StructuredContent)
		if err != nil {
			return nil, err
		}
		c.Structured = s
	}
	return json.Marshal(c)
}

func decodeResult(v []byte) (*mcp.CallToolResult, error) {
	var c cachedResult
	if err := json.Unmarshal(v, &c); err != nil {
		return nil, err
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: c.Text}}}
	if len(c.Structured) > 0 {
		out.StructuredContent = c.Structured
	}
	return out, nil
}
