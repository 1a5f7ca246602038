package history

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// blobReader reads blob contents through one long-lived `git cat-file
// --batch`: one process for the whole history instead of one per blob
// (starting git costs about a millisecond; reading a blob through the
// open process costs microseconds). It is used by one goroutine.
type blobReader struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *limitedBuffer
}

// errMissingBlob is a blob the repository does not have (a partial or
// damaged clone).
var errMissingBlob = errors.New("blob missing from the repository")

func newBlobReader(ctx context.Context, root string) (*blobReader, error) {
	cmd := gitCommand(ctx, root, "cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &limitedBuffer{buf: &bytes.Buffer{}, max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	return &blobReader{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 256<<10), stderr: stderr}, nil
}

// read returns the content of a blob; content longer than limit bytes is
// not read (too large is true).
func (b *blobReader) read(hash string, limit int64) (content []byte, tooLarge bool, err error) {
	if _, err := io.WriteString(b.stdin, hash+"\n"); err != nil {
		return nil, false, b.failure(err)
	}
	header, err := b.stdout.ReadString('\n')
	if err != nil {
		return nil, false, b.failure(err)
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, false, errMissingBlob
	}
	if len(fields) != 3 {
		return nil, false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 {
		return nil, false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	if size > limit || fields[1] != "blob" {
		if _, err := b.stdout.Discard(int(size) + 1); err != nil {
			return nil, false, b.failure(err)
		}
		return nil, true, nil
	}
	content = make([]byte, size+1)
	if _, err := io.ReadFull(b.stdout, content); err != nil {
		return nil, false, b.failure(err)
	}
	return content[:size], false, nil
}

func (b *blobReader) failure(err error) error {
	return fmt.Errorf("git cat-file: %w: %s", err, strings.TrimSpace(b.stderr.buf.String()))
}

// close ends the process.
func (b *blobReader) close() {
	b.stdin.Close()
	_, _ = io.Copy(io.Discard, b.stdout)
	_ = b.cmd.Wait()
}
