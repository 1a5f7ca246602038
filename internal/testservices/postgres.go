package testservices

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Postgres is a PostgreSQL server started for a test, in a data directory
// of its own, with one database (gitnexus) and trust authentication on
// 127.0.0.1.
type Postgres struct {
	// URI is the postgres:// address of the test's database.
	URI  string
	Port int

	t        testing.TB
	bin, dir string
	uid, gid int
	c        *child
}

// StartPostgres initialises a cluster and starts it; it is stopped when
// the test ends. PostgreSQL refuses to run as root: a root test process
// runs it as the postgres user Debian's package creates.
func StartPostgres(t testing.TB) *Postgres {
	t.Helper()
	bin := newestGlob("/usr/lib/postgresql/*/bin")
	if bin == "" {
		if p, err := exec.LookPath("initdb"); err == nil {
			bin = filepath.Dir(p)
		} else {
			missing(t, "PostgreSQL")
		}
	}
	p := &Postgres{t: t, bin: bin, uid: -1, gid: -1, Port: freePort(t)}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("PostgreSQL cannot run as root and there is no postgres user: %v", err)
		}
		p.uid, _ = strconv.Atoi(u.Uid)
		p.gid, _ = strconv.Atoi(u.Gid)
	}
	// Not t.TempDir: its parents are private to the test's user, and the
	// postgres user must reach the data directory.
	dir, err := os.MkdirTemp("", "gitnexus-pg-")
	if err != nil {
		t.Fatal(err)
	}
	p.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if p.uid >= 0 {
		if err := os.Chown(dir, p.uid, p.gid); err != nil {
			t.Fatal(err)
		}
	}
	p.run(filepath.Join(bin, "initdb"), "-D", p.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8",
		"--locale=C", "--no-sync")
	p.URI = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/gitnexus?sslmode=disable", p.Port)
	p.Start()
	t.Cleanup(p.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.Port))
	if err != nil {
		t.Fatalf("connect to the test's PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE gitnexus"); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *Postgres) data() string { return filepath.Join(p.dir, "data") }

// run runs a PostgreSQL program to its end, as the server's user.
func (p *Postgres) run(name string, args ...string) {
	p.t.Helper()
	cmd := exec.Command(name, args...)
	asUser(cmd, p.uid, p.gid)
	cmd.Dir = p.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("%s: %v\n%s", filepath.Base(name), err, out)
	}
}

// Start starts the server (again, after Stop or Kill: same port, same
// data).
func (p *Postgres) Start() {
	p.t.Helper()
	// After a kill, a backend of the killed server may still hold its
	// shared memory for a moment, and the new server refuses to start:
	// it is started again until that is over.
	logPath := filepath.Join(p.dir, "postgres.log")
	for try := 0; ; try++ {
		before, _ := os.ReadFile(logPath)
		p.c = startChild(p.t, logPath, p.uid, p.gid, filepath.Join(p.bin, "postgres"),
			"-D", p.data(), "-p", strconv.Itoa(p.Port), "-c", "listen_addresses=127.0.0.1",
			"-c", "unix_socket_directories="+p.dir, "-c", "fsync=off", "-c", "full_page_writes=off",
			"-c", "max_connections=100", "-c", "shared_buffers=64MB")
		err := waitPort(p.Port, p.c.exited, 30*time.Second)
		if err == nil {
			break
		}
		after, _ := os.ReadFile(logPath)
		if try < 100 && len(after) >= len(before) && strings.Contains(string(after[len(before):]), "pre-existing shared memory block") {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		p.t.Fatalf("postgres: %v\n%s", err, logTail(p.c.log))
	}
	// Accepting connections is not yet accepting queries (recovery after
	// a kill): wait for a query to answer.
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.Port))
		if err == nil {
			_, err = conn.Exec(ctx, "SELECT 1")
			conn.Close(ctx)
		}
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("postgres does not answer: %v\n%s", err, logTail(p.c.log))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop shuts the server down (fast mode: sessions are ended, work rolled
// back) and waits for it to exit.
func (p *Postgres) Stop() { p.c.stop(os.Interrupt, 20*time.Second) }

// Kill kills the postmaster at once (its sessions end with it), as a
// crash would.
func (p *Postgres) Kill() {
	if p.c == nil {
		return
	}
	// The whole process group: the postmaster and its backends.
	killGroup(p.c.cmd)
	p.c.stop(os.Kill, 10*time.Second)
}
