package history

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
)

// A repository may lack objects its history names: a shallow or partial
// clone, a mirror without its largest blobs, a damaged pack. git then stops
// in the middle of a pass ("unable to read <object>"). Rather than lose the
// whole history, a pass is resumed after the commit it stopped on, and that
// commit is read again alone, or handed to a fallback that reads what it
// can of it.

// runResumable runs one git pass (args) over inputs, one line per commit
// with its hash first, which git answers in order, one record each. parse
// reads git's output and calls emit with each record and its hash; accept
// receives every record that is known to be complete. When git fails, the
// commit it failed on is tried alone once more, then given to fallback,
// and the pass goes on after it.
func runResumable[T any](ctx context.Context, root string, inputs []string, args []string,
	parse func(r *bufio.Reader, emit func(hash string, rec T) error) error,
	accept func(rec T) error, fallback func(input string, cause error) error) error {
	pos := 0
	for pos < len(inputs) {
		accepted, err := runOnce(ctx, root, inputs[pos:], args, parse, accept)
		if err == nil {
			return nil
		}
		var se *streamError
		if !errors.As(err, &se) {
			return err
		}
		suspect := pos + accepted
		if suspect >= len(inputs) {
			return err // git failed after answering everything
		}
		n, err := runOnce(ctx, root, inputs[suspect:suspect+1], args, parse, accept)
		if err != nil {
			if !errors.As(err, &se) {
				return err
			}
			if n == 0 {
				if err := fallback(inputs[suspect], se); err != nil {
					return err
				}
			}
		}
		pos = suspect + 1
	}
	return nil
}

// runOnce runs one pass and reports how many records it accepted. The last
// record git printed is held back until git has exited cleanly: when git
// fails, that record may be cut short.
func runOnce[T any](ctx context.Context, root string, inputs []string, args []string,
	parse func(r *bufio.Reader, emit func(hash string, rec T) error) error,
	accept func(rec T) error) (int, error) {
	var pending T
	hasPending := false
	accepted := 0
	err := streamGit(ctx, root, inputs, func(r *bufio.Reader) error {
		return parse(r, func(hash string, rec T) error {
			if i := accepted + boolInt(hasPending); i >= len(inputs) || !strings.HasPrefix(inputs[i], hash) {
				return fmt.Errorf("git %s answered %s out of order", args[0], hash)
			}
			if hasPending {
				if err := accept(pending); err != nil {
					return err
				}
				accepted++
			}
			pending, hasPending = rec, true
			return nil
		})
	}, args...)
	if err != nil {
		return accepted, err
	}
	if hasPending {
		if err := accept(pending); err != nil {
			return accepted, err
		}
		accepted++
	}
	return accepted, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
