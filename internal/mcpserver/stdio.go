package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio transport of the MCP SDK reads its input as one stream of
// JSON values: a single line that is not JSON, is not UTF-8, nests past
// the decoder's depth, or is JSON but no JSON-RPC message ({}), ends the
// session. StdioTransport puts a line filter in front of it: each line
// (MCP's stdio framing) is checked on its own, a bad one is answered with
// the JSON-RPC error the specification gives it (-32700 parse error,
// -32600 invalid request, with the request's id when it has a usable one,
// else null) and the session goes on with the next line. Batches, which
// MCP dropped in its 2025-06-18 version, are refused (-32600 for each
// message) once the client has asked for that version or a later one.

// MaxLineBytes bounds one line of input: a longer one is answered -32600
// and skipped to its end.
const MaxLineBytes = mcp.DefaultMaxLineLength

// StdioTransport serves MCP over in and out, newline-delimited, surviving
// malformed lines; the end of in is reported only once the requests read
// have been answered (DrainingTransport).
func StdioTransport(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: &ASCIIWriter{W: out}}
	pr, pw := io.Pipe()
	go filterLines(in, pw, w)
	return &DrainingTransport{Transport: &mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{w}}}
}

// lockedWriter makes each Write whole: the SDK writes one message per
// Write, and the filter's error answers go between them, never inside.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// filterLines copies the good lines of in to pw and answers the bad ones
// on out. It closes pw at the end of in (or when the session stopped
// reading).
func filterLines(in io.Reader, pw *io.PipeWriter, out io.Writer) {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	lf := &lineFilter{out: out}
	for {
		chunk, err := r.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if len(line)+len(chunk) > MaxLineBytes {
			answerError(out, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is longer than %d bytes", MaxLineBytes))
			line = line[:0]
			if full {
				err = skipLine(r)
			}
			if err != nil {
				pw.CloseWithError(nilIfEOF(err))
				return
			}
			continue
		}
		line = append(line, chunk...)
		if full {
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if good, ok := lf.check(line); ok {
				if _, werr := pw.Write(good); werr != nil {
					return // the session is over
				}
			}
		}
		line = line[:0]
		if err != nil {
			pw.CloseWithError(nilIfEOF(err))
			return
		}
	}
}

func nilIfEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// skipLine reads to the end of the current line.
func skipLine(r *bufio.Reader) error {
	for {
		_, err := r.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

// lineFilter checks lines and remembers the protocol version the client
// asked for.
type lineFilter struct {
	out     io.Writer
	version string
}

// noBatchesSince is the protocol version that dropped JSON-RPC batches.
const noBatchesSince = "2025-06-18"

// check returns the line to pass on (ending in a newline) and true, or
// answers it and returns false. A batch passes on its valid messages and
// has the others answered one by one.
func (lf *lineFilter) check(line []byte) ([]byte, bool) {
	out := lf.out
	line = bytes.TrimSpace(line)
	if !utf8.Valid(line) {
		answerError(out, nil, jsonrpc.CodeParseError, "parse error: the message is not UTF-8")
		return nil, false
	}
	if !json.Valid(line) {
		answerError(out, nil, jsonrpc.CodeParseError, "parse error: the message is not one JSON value (or nests too deep)")
		return nil, false
	}
	if line[0] != '[' {
		if why := invalidMessage(line); why != "" {
			answerError(out, idOf(line), jsonrpc.CodeInvalidRequest, why)
			return nil, false
		}
		lf.noteVersion(line)
		return append(line, '\n'), true
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
		answerError(out, nil, jsonrpc.CodeInvalidRequest, "invalid request: an empty batch")
		return nil, false
	}
	if lf.version >= noBatchesSince {
		for _, m := range batch {
			answerError(out, idOf(m), jsonrpc.CodeInvalidRequest,
				"invalid request: protocol version "+lf.version+" has no batches: send one message a line")
		}
		return nil, false
	}
	var good []json.RawMessage
	for _, m := range batch {
		if why := invalidMessage(m); why != "" {
			answerError(out, idOf(m), jsonrpc.CodeInvalidRequest, why)
			continue
		}
		good = append(good, m)
	}
	if len(good) == 0 {
		return nil, false
	}
	data, err := json.Marshal(good)
	if err != nil {
		return nil, false
	}
	return append(data, '\n'), true
}

// noteVersion remembers the protocol version of an initialize request.
func (lf *lineFilter) noteVersion(data []byte) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(data, &m) == nil && m.Method == "initialize" {
		lf.version = m.Params.ProtocolVersion
	}
}

// invalidMessage says why data is not a JSON-RPC 2.0 message, or "".
func invalidMessage(data []byte) string {
	if len(data) == 0 || data[0] != '{' {
		return "invalid request: a message must be a JSON object"
	}
	if _, err := jsonrpc.DecodeMessage(data); err != nil {
		return "invalid request: " + err.Error()
	}
	return ""
}

// idOf is the id of a message when it is one a response can carry (a
// string or a number), else null.
func idOf(data []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(data, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// answerError writes a JSON-RPC error response.
func answerError(out io.Writer, id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err != nil {
		return
	}
	out.Write(append(data, '\n'))
}
