// Package gitcmd runs the git binary for the packages that read a
// repository through it (changes, freshness, the CLI's repository state):
// one way to call it, with paths unquoted and git's own message in errors.
package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// Output runs `git -c core.quotePath=false <args>` in dir and returns its
// standard output. A failure says the command and what git wrote on its
// standard error. Under a context made by LowPriority, git runs at the
// lowest CPU priority (nice 19) where nice(1) exists.
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	argv := append([]string{"git", "-c", "core.quotePath=false"}, args...)
	if low, _ := ctx.Value(lowPriorityKey{}).(bool); low && niceBinary() != "" {
		argv = append([]string{niceBinary(), "-n", "19"}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

type lowPriorityKey struct{}

// LowPriority marks ctx so that the git commands run under it take only
// the CPU others leave (background checks of a server).
func LowPriority(ctx context.Context) context.Context {
	return context.WithValue(ctx, lowPriorityKey{}, true)
}

// niceBinary is nice(1), when there is one.
var niceBinary = sync.OnceValue(func() string {
	p, _ := exec.LookPath("nice")
	return p
})
