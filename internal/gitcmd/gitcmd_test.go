package gitcmd

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

func TestOutput(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Output(ctx, dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	out, err := Output(ctx, dir, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		t.Fatalf("rev-parse: %q, %v", out, err)
	}
	// A failure names the command and carries git's own message.
	_, err = Output(ctx, dir, "rev-parse", "--verify", "no-such-ref")
	if err == nil || !strings.Contains(err.Error(), "git rev-parse --verify no-such-ref") || !strings.Contains(err.Error(), "fatal") {
		t.Errorf("error %v does not name the command and git's message", err)
	}
	// Under LowPriority, what git runs has the lowest CPU priority: an
	// alias running nice(1) with no arguments prints its niceness.
	if _, err := exec.LookPath("nice"); err != nil {
		t.Skip("no nice")
	}
	base, err := Output(ctx, dir, "-c", "alias.niceness=!nice", "niceness")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(base)) == "19" {
		t.Skip("this process already runs at the lowest priority")
	}
	low, err := Output(LowPriority(ctx), dir, "-c", "alias.niceness=!nice", "niceness")
	if err != nil || strings.TrimSpace(string(low)) != "19" {
		t.Errorf("under LowPriority the niceness is %q (%v), want 19 (it is %s otherwise)", low, err, strings.TrimSpace(string(base)))
	}
}
