// Command gitnexus indexes git repositories into code knowledge graphs and
// answers questions about them. See `gitnexus --help`.
package main

import (
	"os"

	"gitnexus.dev/gitnexus/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.IO{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}))
}
