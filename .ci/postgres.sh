#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the SQL push-down tests and prints the connection string.
# Installs Debian's postgresql if it is missing. The server runs as the `postgres` user on a private port and
# socket directory; stop it with: pg_ctl -D "$PGDATA_DIR" stop (the CI machine is discarded anyway).
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1
fi
bin="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")"
dir="$(mktemp -d /tmp/um-pg.XXXXXX)"
chown postgres "$dir"
# the first free port from 54329 (another server may already listen there)
port=54329
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null
echo "postgresql://postgres@127.0.0.1:$port/postgres"
