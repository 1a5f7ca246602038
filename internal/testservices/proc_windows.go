package testservices

import (
	"os"
	"os/exec"
)

// The servers come from Debian's packages: on Windows no test finds them
// (missing skips or fails first); these keep the package compiling.

var sigTerm = os.Interrupt

func childAttrs(*exec.Cmd, int, int) {}

func asUser(*exec.Cmd, int, int) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
