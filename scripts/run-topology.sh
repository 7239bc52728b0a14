#!/usr/bin/env bash
# The docker-compose.yml topology without Docker: the service binaries on 127.0.0.1, each
# on its own port with the compose file's environment, on a real PostgreSQL, behind
# Debian's nginx running deploy/nginx.conf. For end-to-end tests in CI.
#
#   scripts/run-topology.sh [--bin-dir DIR] [--gateway-port N] [--replicas N] [--keep] [-- COMMAND ...]
#
#   --bin-dir DIR       where the executables are (default .build/release); a service whose
#                       binary is missing there is skipped with a note
#   --gateway-port N    the gateway's port on 127.0.0.1 (default 8080, or COMMONS_GATEWAY_PORT)
#   --replicas N        run N processes of every service (default 1), as
#                       `docker compose up --scale <service>=N` does: replica k listens on
#                       the compose port + 100 × (k − 1) with its own data directory
#                       (<service>-k), and nginx spreads requests over them (an upstream
#                       group a service, scripts/gateway-conf.sh --replicas)
#   --keep              keep the run directory (logs, read models) after the end
#   COMMAND             run it once every route answers through the gateway, with
#                       COMMONS_GATEWAY_URL set, then stop everything and exit with its
#                       status; without one, run until Ctrl-C
#
# COMMONS_TEST_POSTGRES_URL names the PostgreSQL (scripts/with-postgres.sh sets one up:
# `scripts/with-postgres.sh scripts/run-topology.sh -- COMMAND`). The services' ports are
# the compose file's (8081–8085) and must be free.
#
# Each service gets the environment that docker-compose.yml gives it (its `${VAR:-default}`
# values read from this shell's environment, as Compose does), except the values that name
# Docker things, which are replaced thus:
#   COMMONS_EVENT_STORE      -> $COMMONS_TEST_POSTGRES_URL
#   COMMONS_DATA_DIR         -> <run dir>/data/<service>   (its own, like its volume)
#   COMMONS_HOST             -> 127.0.0.1
#   COMMONS_ACCOUNTS_URL     -> http://127.0.0.1:8081
#   COMMONS_TRUSTED_PROXIES  -> 127.0.0.1                  (nginx, on loopback)
#   COMMONS_PEERS            -> every replica's http://127.0.0.1:<port>
#   COMMONS_SNAPSHOT_SOURCE  -> none (each replica starts on its own from the log)
# nginx runs the copy of deploy/nginx.conf that scripts/gateway-conf.sh writes (the
# services' Docker names become 127.0.0.1 and the listen port the gateway port).
# Everything started here is stopped on exit, whatever the exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

bin_dir=$root/.build/release
gateway_port=${COMMONS_GATEWAY_PORT:-8080}
keep=no
replicas=1
command=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin-dir) bin_dir=$2; shift 2 ;;
    --gateway-port) gateway_port=$2; shift 2 ;;
    --keep) keep=yes; shift ;;
    --replicas) replicas=$2; shift 2 ;;
    --) shift; command=("$@"); break ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "run-topology: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { echo "run-topology: $*" >&2; }

[ -n "${COMMONS_TEST_POSTGRES_URL:-}" ] \
  || { say "set COMMONS_TEST_POSTGRES_URL, or run under scripts/with-postgres.sh"; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { say "nginx not found (apt-get install -y --no-install-recommends nginx-light)"; exit 2; }
python=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import yaml' 2>/dev/null; then python=$candidate; break; fi
done
[ -n "$python" ] || { say "no python3 with PyYAML (apt-get install -y --no-install-recommends python3-yaml)"; exit 2; }

# The services and their environments, from the compose file: "name port" lines, then
# NAME=VALUE lines per service.
compose_env() {
  "$python" - "$root/docker-compose.yml" "$@" <<'PY'
import os, re, sys, yaml
compose = yaml.safe_load(open(sys.argv[1]))['services']
def interpolate(value):
    def one(m):
        name, default = m.group(1), m.group(3) or ''
        value = os.environ.get(name)
        if (m.group(2) or '').endswith('?') and not value:
            sys.exit(f"{name}: {default or 'is required'}")
        return value or default
    return re.sub(r'\$\{(\w+)(?:(:?[-?])([^}]*))?\}', one, str(value))
if len(sys.argv) == 2:
    for name, s in compose.items():
        env = s.get('environment') or {}
        if isinstance(env, dict) and 'COMMONS_PORT' in env:
            print(name, env['COMMONS_PORT'])
else:
    for key, value in (compose[sys.argv[2]].get('environment') or {}).items():
        print(f"{key}={interpolate(value)}")
PY
}

# accounts seals its shared signing keys with this; a throwaway topology makes up its own.
# The compose file requires a PostgreSQL password; here COMMONS_EVENT_STORE is replaced by
# COMMONS_TEST_POSTGRES_URL, so the value only satisfies the interpolation.
export POSTGRES_PASSWORD="${POSTGRES_PASSWORD:-unused-the-url-is-replaced}"
export COMMONS_SIGNING_KEY_SECRET="${COMMONS_SIGNING_KEY_SECRET:-$("$python" -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')}"
export COMMONS_KEY_VAULT_SECRET="${COMMONS_KEY_VAULT_SECRET:-$("$python" -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')}"

run_dir=$(mktemp -d /tmp/commons-topology.XXXXXX)
chmod 755 "$run_dir"   # nginx's workers (another user when run as root) write temp files here
pids=()
stop() {
  local status=$?
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 100); do
    local alive=no
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=yes; done
    [ "$alive" = no ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$keep" = yes ]; then say "kept $run_dir"; else rm -rf "$run_dir"; fi
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT TERM

port_free() {
  "$python" -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}
http_status() {  # http_status PORT PATH -> the status code, or 000 when nothing answers
  "$python" - "$@" <<'PY'
import http.client, sys
try:
    c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=3)
    c.request("GET", sys.argv[2], headers={"User-Agent": "run-topology"})
    print(c.getresponse().status)
except Exception:
    print("000")
PY
}
show_log() { say "last lines of $1:"; tail -n 20 "$run_dir/$1.log" >&2 || true; }

started=()
declare -A port_of pid_of
while read -r name compose_port; do
  if [ ! -x "$bin_dir/$name" ]; then
    say "$name: no binary at $bin_dir/$name, skipped"
    continue
  fi
  for k in $(seq 1 "$replicas"); do
    port=$((compose_port + 100 * (k - 1)))
    instance=$name
    [ "$k" -gt 1 ] && instance="$name-$k"
    port_free "$port" || { say "$instance: port $port is in use"; exit 1; }
    mkdir -p "$run_dir/data/$instance"
    env_args=()
    peers=()
    for j in $(seq 1 "$replicas"); do peers+=("http://127.0.0.1:$((compose_port + 100 * (j - 1)))"); done
    while IFS= read -r line; do
      case "${line%%=*}" in
        COMMONS_EVENT_STORE) line="COMMONS_EVENT_STORE=$COMMONS_TEST_POSTGRES_URL" ;;
        COMMONS_DATA_DIR) line="COMMONS_DATA_DIR=$run_dir/data/$instance" ;;
        COMMONS_HOST) line="COMMONS_HOST=127.0.0.1" ;;
        COMMONS_ACCOUNTS_URL) line="COMMONS_ACCOUNTS_URL=http://127.0.0.1:8081" ;;
        COMMONS_TRUSTED_PROXIES) line="COMMONS_TRUSTED_PROXIES=127.0.0.1" ;;
        COMMONS_PORT) line="COMMONS_PORT=$port" ;;
        COMMONS_PEERS) line="COMMONS_PEERS=$(IFS=,; echo "${peers[*]}")" ;;
        COMMONS_SNAPSHOT_SOURCE) continue ;;
      esac
      env_args+=("$line")
    done < <(compose_env "$name")
    printf '%s\n' "${env_args[@]}" | sed -E 's#(://[^:/@]+:)[^@]*@#\1***@#' >"$run_dir/$instance.env"
    env "${env_args[@]}" "$bin_dir/$name" >"$run_dir/$instance.log" 2>&1 &
    pids+=("$!")
    pid_of[$instance]=$!
    started+=("$instance")
    port_of[$instance]=$port
    say "$instance: started on 127.0.0.1:$port (pid $!, log $run_dir/$instance.log)"
    if [ "$name" = accounts ]; then
      # The others fetch its public keys at start: let it listen first.
      for _ in $(seq 1 300); do [ "$(http_status "$port" /health/live)" = 200 ] && break; sleep 0.2; done
    fi
  done
done < <(compose_env)
[ ${#started[@]} -gt 0 ] || { say "no service binaries in $bin_dir"; exit 1; }

port_free "$gateway_port" || { say "gateway port $gateway_port is in use"; exit 1; }
"$root/scripts/gateway-conf.sh" --port "$gateway_port" --run-dir "$run_dir" --replicas "$replicas" "$root/deploy/nginx.conf" >"$run_dir/nginx.conf"
"$nginx_bin" -t -q -p "$run_dir/" -e stderr -c "$run_dir/nginx.conf" -g "pid $run_dir/nginx.pid;"
"$nginx_bin" -p "$run_dir/" -e stderr -c "$run_dir/nginx.conf" -g "pid $run_dir/nginx.pid; daemon off;" >"$run_dir/nginx.log" 2>&1 &
pids+=("$!")
say "gateway: nginx on 127.0.0.1:$gateway_port (pid $!, log $run_dir/nginx.log)"

# Ready when every service says so itself, and its first prefix answers through the
# gateway from the service (anything but the gateway's own 502/503/504).
first_prefix() {
  sed -n "/name: \"$1\"/,/\])/p" "$root/Tools/StackKit/ServiceTable.swift" | grep -o '"/[^"]*"' | head -n 1 | tr -d '"'
}
deadline=$((SECONDS + ${COMMONS_TOPOLOGY_PATIENCE:-180}))
for name in "${started[@]}"; do
  prefix=$(first_prefix "${name%-[0-9]*}")
  until [ "$(http_status "${port_of[$name]}" /health/ready)" = 200 ] \
        && ! [[ "$(http_status "$gateway_port" "$prefix")" =~ ^(000|502|503|504)$ ]]; do
    if ! kill -0 "${pid_of[$name]}" 2>/dev/null; then say "$name exited"; show_log "$name"; exit 1; fi
    if [ $SECONDS -ge $deadline ]; then say "$name not ready through the gateway in time"; show_log "$name"; show_log nginx; exit 1; fi
    sleep 0.3
  done
  say "$name: ready, $prefix answers through the gateway ($(http_status "$gateway_port" "$prefix"))"
done
export COMMONS_GATEWAY_URL="http://127.0.0.1:$gateway_port"
say "up: $COMMONS_GATEWAY_URL (${started[*]})"

if [ ${#command[@]} -gt 0 ]; then
  set +e
  "${command[@]}"
  status=$?
  set -e
  exit "$status"
fi
say "Ctrl-C stops everything"
wait -n "${pids[@]}"
say "a process exited; stopping everything"
exit 1
