#!/usr/bin/env bash
# Runs a command with COMMONS_TEST_POSTGRES_URL pointing at a PostgreSQL server, and with
# TMPDIR a scratch directory of its own that is removed afterwards, so that the SQLite
# files, logs and data directories the tests make do not pile up in /tmp.
#
# If COMMONS_TEST_POSTGRES_URL is set, the command runs against that server. Otherwise a
# throwaway cluster is created in a temporary directory, listening on 127.0.0.1 only,
# and is stopped and removed when the command ends, whether it passed or failed; a second
# one, for the end-to-end suite, goes to COMMONS_E2E_POSTGRES_URL unless that is set.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
set -euo pipefail

scratch=$(mktemp -d /tmp/commons-run.XXXXXX)
chmod 755 "$scratch"
export TMPDIR="$scratch"
if [ -n "${COMMONS_TEST_POSTGRES_URL:-}" ]; then
  trap 'rm -rf "$scratch"' EXIT
  trap 'exit 130' INT TERM
  "$@"
  exit
fi

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
  echo "with-postgres: PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  rm -rf "$scratch"
  exit 1
fi

# Starts a throwaway cluster in a new temporary directory; prints its URL.
dirs=()
start_cluster() {
  local dir port
  dir=$(mktemp -d /tmp/commons-pg.XXXXXX)
  dirs+=("$dir")
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${as_pg[@]}" "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=1000 ${COMMONS_TEST_POSTGRES_OPTIONS:-}" >/dev/null \
    || { cat "$dir/server.log" >&2; return 1; }
  echo "with-postgres: throwaway PostgreSQL on 127.0.0.1:$port" >&2
  url="postgres://postgres@127.0.0.1:$port/postgres"
}

as_pg=()
[ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)

stop() {
  for dir in "${dirs[@]}"; do
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
  done
  rm -rf "$scratch"
}
trap stop EXIT
trap 'exit 130' INT TERM

start_cluster
export COMMONS_TEST_POSTGRES_URL="$url"
# The end-to-end suite gets a cluster of its own: PostgreSQL's visibility horizon is
# cluster-wide, so the event-log tests that hold a transaction open for seconds would hold
# back delivery to the whole topology too.
if [ -z "${COMMONS_E2E_POSTGRES_URL:-}" ]; then
  start_cluster
  export COMMONS_E2E_POSTGRES_URL="$url"
fi
"$@"
