package testservices

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestPostgresStartsStopsAndRestarts(t *testing.T) {
	p := StartPostgres(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.URI)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	p.Kill()
	if _, err := pgx.Connect(ctx, p.URI); err == nil {
		t.Fatal("connected to a killed server")
	}
	p.Start()
	conn, err = pgx.Connect(ctx, p.URI)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var x int
	if err := conn.QueryRow(ctx, "SELECT x FROM t").Scan(&x); err != nil || x != 1 {
		t.Fatalf("after a restart: %d, %v", x, err)
	}
}

func TestRedisStartsAndStops(t *testing.T) {
	r := StartRedis(t)
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+itoa(r.Port), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, _ := c.Read(buf)
	c.Close()
	if string(buf[:n]) != "+PONG\r\n" {
		t.Fatalf("PING answered %q", buf[:n])
	}
	r.Stop()
	if _, err := net.DialTimeout("tcp", "127.0.0.1:"+itoa(r.Port), time.Second); err == nil {
		t.Fatal("a stopped server still accepts connections")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
