package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// attack is one hostile request and the status it must get.
type attack struct {
	name   string
	want   int
	method string
	path   string
	body   string
	header map[string]string
	host   string
}

func attacks(repo string) []attack {
	bomb := `{"repo": "` + repo + `", "query": "RETURN size(reduce(s = 'a', x IN range(1, 40) | s + s)) AS n"}`
	rows := `{"repo": "` + repo + `", "query": "UNWIND range(1, 1000) AS i RETURN reduce(s = 'a', x IN range(1, 20) | s + s) + i AS s"}`
	return []attack{
		{name: "cypher: a string doubled in reduce", want: 400, method: "POST", path: "/api/v1/tools/cypher", body: bomb},
		{name: "cypher: a thousand 1 MiB rows", want: 400, method: "POST", path: "/api/v1/tools/cypher", body: rows},
		{name: "body over the size limit", want: 413, method: "POST", path: "/api/v1/tools/query", body: `{"query": "` + strings.Repeat("x", 2<<20) + `"}`},
		{name: "foreign Host (DNS rebinding)", want: 403, method: "GET", path: "/api/v1/repos", host: "attacker.example"},
		{name: "cross-site Origin", want: 403, method: "POST", path: "/api/v1/tools/query", body: `{"query": "x"}`,
			header: map[string]string{"Origin": "http://attacker.example"}},
		{name: "malformed MCP message", want: 400, method: "POST", path: "/api/mcp", body: `{"jsonrpc": "2.0", "id": 1, "method":`,
			header: map[string]string{"Accept": "application/json, text/event-stream"}},
	}
}

// hostile sends the attacks in turn until ctx ends.
func hostile(ctx context.Context, base, repo string, rep *report) {
	hc := &http.Client{Timeout: time.Minute}
	list := attacks(repo)
	for i := 0; ctx.Err() == nil; i++ {
		a := list[i%len(list)]
		req, _ := http.NewRequestWithContext(ctx, a.method, base+a.path, strings.NewReader(a.body))
		if a.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range a.header {
			req.Header.Set(k, v)
		}
		if a.host != "" {
			req.Host = a.host
		}
		start := time.Now()
		resp, err := hc.Do(req)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			rep.attack(a.name, a.want, 0, time.Since(start), err.Error())
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		rep.attack(a.name, a.want, resp.StatusCode, time.Since(start), "")
		time.Sleep(50 * time.Millisecond)
	}
}

// stalledBodies keeps n connections that sent their headers and part of
// a body, and then nothing; when the server answers one (408), it is
// opened again.
func stalledBodies(ctx context.Context, base string, n int, rep *report) {
	addr := strings.TrimPrefix(base, "http://")
	done := make(chan struct{}, n)
	open := func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			rep.attack("stalled body", 408, 0, 0, err.Error())
			done <- struct{}{}
			return
		}
		start := time.Now()
		fmt.Fprintf(c, "POST /api/v1/tools/context HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"name\": ", addr)
		go func() {
			defer func() { c.Close(); done <- struct{}{} }()
			stop := context.AfterFunc(ctx, func() { c.Close() })
			defer stop()
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				rep.attack("stalled body", 408, 0, time.Since(start), err.Error())
				return
			}
			resp.Body.Close()
			rep.attack("stalled body", 408, resp.StatusCode, time.Since(start), "")
		}()
	}
	for i := 0; i < n; i++ {
		open()
	}
	for {
		select {
		case <-ctx.Done():
			for i := 0; i < n; i++ {
				<-done
			}
			return
		case <-done:
			if ctx.Err() == nil {
				open()
			} else {
				n-- // one fewer to wait for
			}
		}
	}
}
