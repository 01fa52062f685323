#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the SQL push-down tests and prints the connection string.
# Installs Debian's postgresql if it is missing. The server runs as the `postgres` user on a private port and
# socket directory. When UM_PG_DIR_FILE is set, the server's directory is written there; `.ci/postgres.sh stop DIR`
# stops that server and removes its directory (.ci/run does so on exit).
set -euo pipefail
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = stop ]; then
  bin="$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -1)")"
  as_pg "$bin/pg_ctl" -D "$2/data" stop -m fast >/dev/null || true
  rm -rf "$2"
  exit 0
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1
fi
bin="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")"
dir="$(mktemp -d /tmp/um-pg.XXXXXX)"
if [ -n "${UM_PG_DIR_FILE:-}" ]; then echo "$dir" >"$UM_PG_DIR_FILE"; fi
chown postgres "$dir"
# the first free port from 54329 (another server may already listen there)
port=54329
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null
echo "postgresql://postgres@127.0.0.1:$port/postgres"
