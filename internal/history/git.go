package history

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// gitConfig pins the settings that would change what git prints: the
// commands run with these whatever the user's configuration says.
var gitConfig = []string{
	"-c", "core.quotePath=false",
	"-c", "log.showSignature=false",
	"-c", "log.showRoot=true",
	"-c", "diff.noprefix=false",
	"-c", "diff.mnemonicPrefix=false",
	"-c", "diff.relative=false",
	"-c", "color.ui=false",
	"-c", "i18n.logOutputEncoding=UTF-8",
}

// gitCommand returns a git command run in root, with the pinned settings.
func gitCommand(ctx context.Context, root string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append(append([]string(nil), gitConfig...), args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_PAGER=cat", "GIT_NO_LAZY_FETCH=1")
	return cmd
}

// gitOutput runs a short git command and returns its standard output.
func gitOutput(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := gitCommand(ctx, root, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// streamError is a git command that stopped with an error while its
// output was being read: usually an object the repository does not have
// (a shallow or partial clone, a damaged pack).
type streamError struct {
	args   string
	err    error
	stderr string
}

func (e *streamError) Error() string {
	return fmt.Sprintf("git %s: %v: %s", e.args, e.err, e.stderr)
}

func (e *streamError) Unwrap() error { return e.err }

// streamGit runs git with the commit hashes of input, one per line, on its
// standard input, and hands its standard output to parse. The input is
// written from its own goroutine so that git never blocks on a full pipe.
// When git fails, the error is a *streamError unless the context ended.
func streamGit(parent context.Context, root string, input []string, parse func(r *bufio.Reader) error, args ...string) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	cmd := gitCommand(ctx, root, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 4096}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start git %s: %w", args[0], err)
	}
	writeErr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(stdin, 64<<10)
		for _, h := range input {
			if _, err := w.WriteString(h + "\n"); err != nil {
				writeErr <- err
				stdin.Close()
				return
			}
		}
		err := w.Flush()
		stdin.Close()
		writeErr <- err
	}()
	perr := parse(bufio.NewReaderSize(stdout, 256<<10))
	if perr != nil {
		cancel() // stop git; its output is no longer read
	}
	_, _ = io.Copy(io.Discard, stdout)
	werr := <-writeErr
	err = cmd.Wait()
	switch {
	case perr != nil:
		return perr
	case parent.Err() != nil:
		return parent.Err()
	case err != nil:
		return &streamError{args: args[0], err: err, stderr: strings.TrimSpace(stderr.String())}
	case werr != nil:
		return fmt.Errorf("write to git %s: %w", args[0], werr)
	}
	return nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// repositoryHead returns the commit HEAD names when root is inside a git
// work tree with at least one commit; ok is false otherwise. One git
// process answers both.
func repositoryHead(ctx context.Context, root string) (head string, ok bool) {
	out, err := gitOutput(ctx, root, "rev-parse", "--is-inside-work-tree", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		return "", false
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 || lines[0] != "true" {
		return "", false
	}
	return lines[1], true
}
