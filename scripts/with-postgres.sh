#!/usr/bin/env bash
# Runs a command with COMMONS_TEST_POSTGRES_URL pointing at a PostgreSQL server.
#
# If COMMONS_TEST_POSTGRES_URL is set, the command runs against that server. Otherwise a
# throwaway cluster is created in a temporary directory, listening on 127.0.0.1 only,
# and is stopped and removed when the command ends, whether it passed or failed.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
set -euo pipefail

if [ -n "${COMMONS_TEST_POSTGRES_URL:-}" ]; then
  exec "$@"
fi

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
  echo "with-postgres: PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/commons-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
  as_pg=(runuser -u postgres --)
fi

stop() {
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_pg[@]}" "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 ${COMMONS_TEST_POSTGRES_OPTIONS:-}" >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }

echo "with-postgres: throwaway PostgreSQL on 127.0.0.1:$port" >&2
export COMMONS_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
"$@"
