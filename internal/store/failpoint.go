package store

import "os"

// failpointEnv names the environment variable that makes a writer kill
// itself at a named point, so that tests can check what a crash there
// leaves (the incremental tests in internal/cli). Unset, it costs one
// lookup per write.
const failpointEnv = "GITNEXUS_FAILPOINT"

// failpointsOn reports whether a failpoint is set. A write under a
// failpoint keeps a page cache of one page, so that its changes reach the
// database file before the commit (and the journal left behind is hot), as
// they do when a large repository is written.
func failpointsOn() bool { return os.Getenv(failpointEnv) != "" }

// failpoint kills the process, which no cleanup survives (SIGKILL on
// Unix, TerminateProcess on Windows), when GITNEXUS_FAILPOINT names this
// point.
func failpoint(name string) {
	if os.Getenv(failpointEnv) == name {
		if self, err := os.FindProcess(os.Getpid()); err == nil {
			_ = self.Kill()
		}
		select {} // the signal is on its way
	}
}
