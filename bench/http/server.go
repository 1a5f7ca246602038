package main

import (
	"bufio"
	"os"
	"strings"

	"gitnexus.dev/gitnexus/bench/internal/serveproc"
)

// logCounts stops the server and counts its access log's answers to the
// load's endpoints: "200" and "other". It removes the log.
func logCounts(s *serveproc.Server) (map[string]int, error) {
	if err := s.Stop(); err != nil {
		return nil, err
	}
	defer os.Remove(s.LogPath)
	f, err := os.Open(s.LogPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "msg=request ") ||
			!(strings.Contains(line, " path=/api/v1/file/") || strings.Contains(line, " path=/api/v1/tools/impact ")) {
			continue
		}
		if strings.Contains(line, " status=200 ") {
			counts["200"]++
		} else {
			counts["other"]++
		}
	}
	return counts, sc.Err()
}
