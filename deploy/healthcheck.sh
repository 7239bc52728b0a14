#!/usr/bin/env bash
# The image's HEALTHCHECK: exits 0 when the service in this container answers 200 to
# GET /health/ready (its projections have caught up), 1 otherwise.
#
#   commons-healthcheck [PATH] [PORT]
#
# The port is PORT, else COMMONS_PORT, else the default port of the service this
# container runs (read from PID 1's command line, so it also works under `init: true`).
# Plain bash over /dev/tcp, so the runtime image needs no curl.
set -uo pipefail

path=${1:-/health/ready}
port=${2:-${COMMONS_PORT:-}}
if [ -z "$port" ]; then
  for word in $(tr '\0' ' ' </proc/1/cmdline 2>/dev/null); do
    case "${word##*/}" in
      accounts) port=8081 ;;
      listings) port=8082 ;;
      geo-search) port=8083 ;;
      donations) port=8084 ;;
      shopping-lists) port=8085 ;;
    esac
  done
fi
[ -n "$port" ] || { echo "healthcheck: no port (set COMMONS_PORT)" >&2; exit 1; }

exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nUser-Agent: commons-healthcheck\r\nConnection: close\r\n\r\n' "$path" "$port" >&3
IFS= read -r -t 5 status <&3 || exit 1
exec 3<&-
case "$status" in
  "HTTP/1."?" 200 "*) exit 0 ;;
  *) echo "healthcheck: ${status%$'\r'}" >&2; exit 1 ;;
esac
