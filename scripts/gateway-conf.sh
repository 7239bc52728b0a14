#!/usr/bin/env bash
# Writes to stdout a copy of deploy/nginx.conf for a gateway without Docker: the one that
# scripts/run-topology.sh runs and scripts/check-deploy.sh tests; or, with --kubernetes, the
# Kubernetes gateway's (deploy/kubernetes/base/gateway/nginx.conf, committed; check-deploy
# fails when it differs from what this writes).
#
#   scripts/gateway-conf.sh [--port N] [--listen-host H] [--upstream-host H] [--run-dir DIR] [--replicas N] [--docs-dir DIR] [--web-dir DIR] [FILE]
#   scripts/gateway-conf.sh --kubernetes NAMESPACE [FILE]
#
# The substitutions, and nothing else:
#   1. Each upstream group's `server <name>:<port> resolve …;` line becomes
#      `server H:<port> …;` (--upstream-host, default 127.0.0.1): the same port on one host
#      instead of Docker's service name, without `resolve`, which an IP literal does not
#      need and Debian's nginx (1.22) does not know. The `resolver` line stays unused.
#   2. `listen 8080;` becomes `listen <listen host>:<port>;` (--listen-host, default
#      127.0.0.1; --port, default 8080).
#   3. With --run-dir, the request-body and proxy temporary files go under DIR instead of
#      nginx's compiled-in directories (two lines added after `http {`).
#   4. The documentation's and the web app's directories, /usr/share/commons/docs and
#      /usr/share/commons/web in the nginx container, become this checkout's deploy/docs and
#      deploy/web (--docs-dir DIR, --web-dir DIR for others). With --run-dir and neither of
#      those, they are copies under DIR/public, readable by everyone: nginx's workers run as
#      another user when nginx starts as root, and a checkout may sit in a directory only its
#      owner can enter (`mktemp -d` makes one), where they answered 403.
#   5. With --replicas N above 1, each group has N such lines: H:<port>, H:<port + 100>, …
#      (what Docker's DNS gives nginx for a scaled service; round robin, the next one on a
#      refused connection).
# With --kubernetes NAMESPACE, these instead, and nothing else (routes, limits, paths and
# `listen 8080;` stay as they are):
#   1. Each `server <name>:<port> resolve …;` line names the service's cluster DNS name,
#      `<name>.<NAMESPACE>.svc.cluster.local:<port>`: nginx's own resolver does not apply
#      the pod's search domains. The Services are headless, so the name gives every ready
#      pod, as Docker's DNS gives every replica.
#   2. `resolver 127.0.0.11 …` (Docker's DNS) becomes the cluster's DNS Service,
#      `kube-dns.kube-system.svc.cluster.local`, looked up once at start.
#   3. After `http {`: the client's address from `X-Forwarded-For` when the peer is a
#      private address (the Ingress controller), so the flood guard counts clients.
#   4. A first line saying the file is generated.
# It fails if a substitution finds nothing to change, so a reworded nginx.conf cannot
# silently leave Docker names in the copy.
set -euo pipefail

port=8080
listen_host=127.0.0.1
upstream_host=127.0.0.1
run_dir=
replicas=1
own_files=
docs_dir="$(cd "$(dirname "$0")/.." && pwd)/deploy/docs"
web_dir="$(cd "$(dirname "$0")/.." && pwd)/deploy/web"
file="$(dirname "$0")/../deploy/nginx.conf"
namespace=
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift 2 ;;
    --listen-host) listen_host=$2; shift 2 ;;
    --upstream-host) upstream_host=$2; shift 2 ;;
    --run-dir) run_dir=$2; shift 2 ;;
    --replicas) replicas=$2; shift 2 ;;
    --docs-dir) docs_dir=$2; own_files=1; shift 2 ;;
    --web-dir) web_dir=$2; own_files=1; shift 2 ;;
    --kubernetes) namespace=$2; shift 2 ;;
    -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
    -*) echo "gateway-conf: unknown option $1" >&2; exit 2 ;;
    *) file=$1; shift ;;
  esac
done

server_re='^[[:space:]]*server[[:space:]]+[a-z-]+:[0-9]+[[:space:]]+resolve[[:space:];]'

if [ -n "$namespace" ]; then
  [[ $namespace =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]] || { echo "gateway-conf: '$namespace' is not a namespace name" >&2; exit 2; }
  conf=$(cat "$file")
  [ "$(grep -cE "$server_re" <<<"$conf")" -eq 5 ] \
    || { echo "gateway-conf: expected five 'server <name>:<port> resolve …;' lines in $file" >&2; exit 1; }
  grep -qE '^[[:space:]]*resolver[[:space:]]+127\.0\.0\.11[[:space:]]' <<<"$conf" \
    || { echo "gateway-conf: no 'resolver 127.0.0.11' line in $file" >&2; exit 1; }
  grep -qE '^http \{' <<<"$conf" || { echo "gateway-conf: no 'http {' line in $file" >&2; exit 1; }
  conf=$(sed -E "s/^([[:space:]]*server[[:space:]]+)([a-z-]+):([0-9]+)([[:space:]]+resolve[[:space:];])/\\1\\2.$namespace.svc.cluster.local:\\3\\4/" <<<"$conf")
  conf=$(sed -E 's/^([[:space:]]*resolver[[:space:]]+)127\.0\.0\.11([[:space:]])/\1kube-dns.kube-system.svc.cluster.local\2/' <<<"$conf")
  conf=$(awk '
    $0 == "http {" {
      print
      print "    # The Ingress controller (a private address in the cluster) passes the client in"
      print "    # X-Forwarded-For: the flood guard and the log count the client, not the controller."
      print "    set_real_ip_from 10.0.0.0/8;"
      print "    set_real_ip_from 172.16.0.0/12;"
      print "    set_real_ip_from 192.168.0.0/16;"
      print "    set_real_ip_from fc00::/7;"
      print "    real_ip_header X-Forwarded-For;"
      print "    real_ip_recursive on;"
      print ""
      next
    }
    { print }' <<<"$conf")
  printf '# Generated from deploy/nginx.conf by `scripts/gateway-conf.sh --kubernetes %s`: edit that file,\n# run this, and commit the result (scripts/check-deploy.sh compares them).\n%s\n' "$namespace" "$conf"
  exit 0
fi

if [ -n "$run_dir" ] && [ -z "$own_files" ]; then
  rm -rf "$run_dir/public"
  mkdir -p "$run_dir/public"
  cp -R "$docs_dir" "$run_dir/public/docs"
  cp -R "$web_dir" "$run_dir/public/web"
  chmod -R a+rX "$run_dir/public"
  docs_dir="$run_dir/public/docs"
  web_dir="$run_dir/public/web"
fi

conf=$(cat "$file")
[ "$(grep -cE "$server_re" <<<"$conf")" -eq 5 ] \
  || { echo "gateway-conf: expected five 'server <name>:<port> resolve …;' lines in $file" >&2; exit 1; }
grep -q '/usr/share/commons/docs' <<<"$conf" \
  || { echo "gateway-conf: no /usr/share/commons/docs in $file" >&2; exit 1; }
conf=${conf//\/usr\/share\/commons\/docs/$docs_dir}
grep -q '/usr/share/commons/web' <<<"$conf" \
  || { echo "gateway-conf: no /usr/share/commons/web in $file" >&2; exit 1; }
conf=${conf//\/usr\/share\/commons\/web/$web_dir}
grep -qE '^[[:space:]]*listen[[:space:]]+8080;' <<<"$conf" \
  || { echo "gateway-conf: no 'listen 8080;' line in $file" >&2; exit 1; }

conf=$(awk -v host="$upstream_host" -v replicas="$replicas" '
  $1 == "server" && $2 ~ /^[a-z-]+:[0-9]+$/ && $3 ~ /^resolve;?$/ {
    indent = substr($0, 1, index($0, "server") - 1)
    port = substr($2, index($2, ":") + 1)
    rest = ($3 == "resolve;") ? ";" : ""
    for (i = 4; i <= NF; i++) rest = rest " " $i
    for (k = 0; k < replicas; k++) print indent "server " host ":" (port + 100 * k) rest
    next
  }
  { print }' <<<"$conf")
conf=$(sed -E "s/^([[:space:]]*listen[[:space:]]+)8080;/\\1$listen_host:$port;/" <<<"$conf")
if [ -n "$run_dir" ]; then
  grep -qE '^http \{' <<<"$conf" || { echo "gateway-conf: no 'http {' line in $file" >&2; exit 1; }
  conf=$(sed -E "s|^http \\{|http {\\n    client_body_temp_path $run_dir/client-body;\\n    proxy_temp_path $run_dir/proxy;|" <<<"$conf")
fi
printf '%s\n' "$conf"
