// Command mcpbench measures the latency of code-graph MCP servers end to end,
// as an agent sees it: it starts a server as a child process speaking MCP
// over stdio, initializes a session, and times every tool call from the
// moment the request is sent to the moment the result is decoded.
//
// The work is split in steps so that two servers answer exactly the same
// questions:
//
//	mcpbench sample -index REPO [-n 200] [-seed 1] -o sample.json
//	    picks functions and methods whose names are unique in REPO's index
//	    (built by `gitnexus analyze`), seeded and deterministic.
//	mcpbench run -server "CMD ARGS" -profile ours|peer -sample sample.json -out DIR/LABEL
//	    calls context, impact and query for every sampled symbol; writes
//	    LABEL.tsv (one row per call), LABEL.json (summary) and
//	    LABEL.responses.jsonl (the answers).
//	mcpbench report ours.json peer.json
//	    prints the side-by-side table (markdown).
//	mcpbench check -sample sample.json ours.responses.jsonl peer.responses.jsonl
//	    compares where each server says the sampled symbols are defined.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "sample":
		err = sampleCmd(args)
	case "run":
		err = runCmd(args)
	case "report":
		err = reportCmd(args)
	case "check":
		err = checkCmd(args)
	case "-h", "-help", "--help", "help":
		usage()
	default:
		fmt.Fprintf(os.Stderr, "mcpbench: unknown command %q\n", cmd)
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage:
  mcpbench sample -index REPO [-n 200] [-seed 1] -o sample.json
  mcpbench run -server "CMD ARGS" (-profile ours|peer | -tool-map map.json) -sample sample.json -out DIR/LABEL
  mcpbench report ours.json peer.json
  mcpbench check -sample sample.json ours.responses.jsonl peer.responses.jsonl
Each command takes -h for its flags.
`)
	os.Exit(2)
}
