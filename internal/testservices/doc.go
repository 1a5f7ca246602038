// Package testservices starts the real servers the team-mode tests talk
// to, PostgreSQL and Redis from Debian's packages (make test-services
// installs them), each on 127.0.0.1 on a free port, in a temporary
// directory of its own. A server is a child process of the test: it is
// stopped when the test ends and killed by the kernel if the test process
// dies first, so none outlives its test.
//
// When a server's programs are not installed, a test run with -short is
// skipped and any other test fails, naming the command that installs them.
package testservices
