package main

import (
	"context"
	"io"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// arrivalTransport runs the server as a child process speaking MCP over
// stdin/stdout, like mcp.CommandTransport, and notes when each message
// from the server has fully arrived (its closing newline was read). With
// one call at a time, the last arrival before CallTool returns is the
// answer's: the time up to it is the server's (and the pipe's), the rest
// is the client decoding the answer.
type arrivalTransport struct {
	cmd  *exec.Cmd
	last atomic.Int64 // monotonic nanoseconds since base of the last newline read
	base time.Time
}

func newArrivalTransport(cmd *exec.Cmd) *arrivalTransport {
	return &arrivalTransport{cmd: cmd, base: time.Now()}
}

// lastArrival is when the last complete message arrived.
func (t *arrivalTransport) lastArrival() time.Time {
	return t.base.Add(time.Duration(t.last.Load()))
}

func (t *arrivalTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	r := &arrivalReader{r: stdout, t: t}
	w := &childStdin{WriteCloser: stdin, cmd: t.cmd}
	return (&mcp.IOTransport{Reader: r, Writer: w}).Connect(ctx)
}

type arrivalReader struct {
	r io.Reader
	t *arrivalTransport
}

func (a *arrivalReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			a.t.last.Store(int64(time.Since(a.t.base)))
			break
		}
	}
	return n, err
}

// Close leaves the pipe to the process: closing stdin ends the server.
func (a *arrivalReader) Close() error { return nil }

// childStdin closes the server's stdin and waits for it to exit (killing
// it after five seconds).
type childStdin struct {
	io.WriteCloser
	cmd  *exec.Cmd
	once sync.Once
}

func (c *childStdin) Close() error {
	var err error
	c.once.Do(func() {
		err = c.WriteCloser.Close()
		done := make(chan struct{})
		go func() { c.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			c.cmd.Process.Kill()
			<-done
		}
	})
	return err
}
