#!/usr/bin/env bash
# Team mode's benchmark (main.go) with servers of its own: a PostgreSQL
# cluster and a Redis on 127.0.0.1, in a temporary directory, stopped when
# it ends. PostgreSQL keeps its defaults but for fsync (on, as in
# production) and shared_buffers (256MB).
#
#   GITNEXUS_HOME=<home> bench/team/run.sh <indexed repository> [-o RESULTS.md]
#
# Needs Debian's postgresql and redis-server (make test-services).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/go/bin"
repo=${1:?usage: bench/team/run.sh <indexed repository> [-o FILE]}
shift

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -n $bin ]] || { echo "run.sh: PostgreSQL is not installed (make test-services)" >&2; exit 1; }
command -v redis-server >/dev/null || { echo "run.sh: redis-server is not installed (make test-services)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/gitnexus-team-bench-XXXXXX)
chmod 755 "$tmp"
as=()
if [[ $(id -u) == 0 ]]; then
	chown postgres "$tmp"
	as=(runuser -u postgres --)
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pgport=$(free_port)
redisport=$(free_port)
cleanup() {
	"${as[@]}" "$bin/pg_ctl" -D "$tmp/data" -m fast stop >/dev/null 2>&1 || true
	[[ -n ${redispid:-} ]] && kill "$redispid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

"${as[@]}" "$bin/initdb" -D "$tmp/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
"${as[@]}" "$bin/pg_ctl" -D "$tmp/data" -l "$tmp/postgres.log" -w \
	-o "-p $pgport -c listen_addresses=127.0.0.1 -c unix_socket_directories=$tmp -c shared_buffers=256MB" start >/dev/null
psql -q -h 127.0.0.1 -p "$pgport" -U postgres -c "CREATE DATABASE gitnexus" postgres
redis-server --bind 127.0.0.1 --port "$redisport" --save "" --appendonly no --dir "$tmp" >"$tmp/redis.log" 2>&1 &
redispid=$!

go run -tags sqlite_fts5 ./bench/team -repo "$repo" \
	-store "postgres://postgres@127.0.0.1:$pgport/gitnexus?sslmode=disable" \
	-redis "redis://127.0.0.1:$redisport/0" "$@"
