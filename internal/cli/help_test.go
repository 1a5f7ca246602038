package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command a user can run has a one-line summary, belongs to a group
// of `gitnexus --help`, and shows examples that run that very command;
// help stays short enough to read on one screen.
func TestEveryCommandHasShortHelpWithExamples(t *testing.T) {
	root := newRootCmd(&IO{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || c.Name() == "completion" {
				continue
			}
			path := sub.CommandPath()
			if sub.Short == "" || len(sub.Short) > 100 || strings.HasSuffix(sub.Short, ".") {
				t.Errorf("%s: summary %q (one line, at most 100 characters, no full stop)", path, sub.Short)
			}
			if c == root && sub.GroupID == "" {
				t.Errorf("%s is in no group of gitnexus --help", path)
			}
			if sub.Name() != "completion" {
				examples := 0
				for _, line := range strings.Split(sub.Example, "\n") {
					line = strings.TrimSpace(line)
					if strings.HasPrefix(line, "gitnexus ") {
						examples++
						if !strings.HasPrefix(line+" ", path+" ") && !strings.Contains(path, "mcp") {
							t.Errorf("%s: example %q runs another command", path, line)
						}
					}
				}
				if examples == 0 {
					t.Errorf("%s has no example", path)
				}
			}
			var out bytes.Buffer
			sub.SetOut(&out)
			if err := sub.Help(); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(out.String(), "\n"); n > 50 {
				t.Errorf("%s --help is %d lines; keep it under 50", path, n)
			}
			walk(sub)
		}
	}
	walk(root)
}

// gitnexus with no arguments prints the overview and succeeds.
func TestNoArguments(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(nil, IO{Out: &out, ErrOut: &errb})
	if code != ExitOK || !strings.Contains(out.String(), "Getting started:") || !strings.Contains(out.String(), "gitnexus setup") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if n := strings.Count(out.String(), "\n"); n > 70 {
		t.Errorf("gitnexus alone prints %d lines", n)
	}
}

// Shell completion scripts come for the three shells the README names.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var out, errb bytes.Buffer
		code := Main([]string{"completion", shell}, IO{Out: &out, ErrOut: &errb})
		if code != ExitOK || !strings.Contains(out.String(), "gitnexus") || out.Len() < 1000 {
			t.Errorf("completion %s: exit %d, %d bytes\n%s", shell, code, out.Len(), errb.String())
		}
	}
}
