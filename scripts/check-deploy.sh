#!/usr/bin/env bash
# Offline checks of the deployment files; no Docker engine and no network needed.
#
#   scripts/check-deploy.sh
#
# 1. docker-compose.yml against the Compose specification: `docker compose config -q`
#    when the Compose v2 plugin is installed, else Debian's `docker-compose` 1.29
#    (`docker-compose config -q`, which validates against the compose-spec schema it
#    ships). Neither present is a failure, with the line that installs one.
# 2. deploy/nginx.conf with `nginx -t` (Debian's nginx), in a temporary prefix, twice:
#    as Docker runs it, and as scripts/gateway-conf.sh rewrites it for runs without
#    Docker. Debian's nginx (1.22) predates the upstream servers' `resolve` (1.27.3, which
#    the compose file's nginx image has) and would look Docker's service names up at load
#    time, so the Docker variant is tested with its five `server` lines on 127.0.0.1 and
#    without `resolve`, everything else as Docker runs it; step 3 checks those lines' shape
#    (each group's own service name and port, `resolve`, a `zone`, `keepalive`). Then the
#    rewritten copy runs on a free loopback port with nothing behind it, and a burst of
#    400 requests from one address must meet the flood guard: 200 pass, later ones get
#    429 problem documents with `Retry-After: 1`. The same gateway then serves the API's
#    documentation, checked in headless Chromium (scripts/check-docs-page.py), and the web
#    app, whose manifest and sw.js go out with their types and `Cache-Control: no-cache`
#    (and sw.js must list the app shell as scripts/make-web-shell.py writes it). And a POST
#    that a replica resets after receiving it is sent to the other replica when it carries
#    an Idempotency-Key, and is a 502 problem when it does not (scripts/check-keyed-retry.py).
# 3. That the gateway, the compose file and the Dockerfile agree with Tools/StackKit/ServiceTable.swift,
#    the one list of services, ports and path prefixes: every prefix routed (exactly and
#    with a `/`) to its service and nothing else routed, every service in the compose file
#    on its port with the shared environment, readiness healthcheck, `depends_on`
#    conditions, no host ports and no container_name (so `--scale` works); and the
#    Dockerfile's shape, which no engine here can build: a Swift build stage, a second
#    runtime stage, every executable listed, a non-root USER, a VOLUME and a HEALTHCHECK.
# 4. deploy/observability (the compose profile "observability"): Debian's promtool checks
#    prometheus.yml with its rules and runs the rules' unit tests (alerts.test.yml); the
#    committed dashboards must be exactly what make-dashboards.py writes; every metric the
#    dashboards and alerts name must be one the services register (Shared/, Services/), and
#    every dashboard query must parse (promtool, as recording rules); the scrape jobs must
#    be StackKit's services on their ports; and compose must accept the profile.
# 5. deploy/kubernetes: scripts/check-kubernetes.sh (every kustomization renders, validates
#    against Kubernetes' schemas, passes checkov, and agrees with StackKit, the compose file's
#    environment and docs/configuration.md; the gateway's nginx.conf is generated).
# Exits non-zero on the first failing check, saying which.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-deploy: FAILED: $*" >&2; exit 1; }
work=$(mktemp -d /tmp/commons-check-deploy.XXXXXX)
trap 'rm -rf "$work"' EXIT

# 1. The compose file, with the secrets an operator must give it (made up here); without
#    them it must refuse to start.
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  fail "neither 'docker compose' nor 'docker-compose' found (apt-get install -y --no-install-recommends docker-compose)"
fi
: >"$work/no.env"   # a .env beside the compose file must not supply what is checked here
for secret in POSTGRES_PASSWORD COMMONS_SIGNING_KEY_SECRET COMMONS_KEY_VAULT_SECRET; do
  if (export POSTGRES_PASSWORD=checkonly COMMONS_SIGNING_KEY_SECRET=checkonly COMMONS_KEY_VAULT_SECRET=checkonly; unset "$secret"
      "${compose[@]}" --env-file "$work/no.env" -f docker-compose.yml config -q) >/dev/null 2>&1; then
    fail "docker-compose.yml starts without $secret"
  fi
done
export POSTGRES_PASSWORD="${POSTGRES_PASSWORD:-checkonly0123456789}"
export COMMONS_SIGNING_KEY_SECRET="${COMMONS_SIGNING_KEY_SECRET:-c2lnbmluZy1rZXktc2VjcmV0LWZvci1jaGVjay1vbmx5ISE=}"
export COMMONS_KEY_VAULT_SECRET="${COMMONS_KEY_VAULT_SECRET:-Y2hlY2stb25seSBrZXkgdmF1bHQgc2VjcmV0IDMyQiE=}"
"${compose[@]}" -f docker-compose.yml --profile seed config -q || fail "${compose[*]} config rejects docker-compose.yml"
echo "check-deploy: docker-compose.yml valid (${compose[*]} config -q), refused without POSTGRES_PASSWORD, COMMONS_SIGNING_KEY_SECRET or COMMONS_KEY_VAULT_SECRET"

# 2. The gateway configuration.
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || fail "nginx not found (apt-get install -y --no-install-recommends nginx-light)"
sed -E 's/^([[:space:]]*server[[:space:]]+)[a-z-]+(:[0-9]+)[[:space:]]+resolve([[:space:];])/\1127.0.0.1\2\3/' \
  deploy/nginx.conf >"$work/docker.conf"
scripts/gateway-conf.sh --port 18080 --run-dir "$work" deploy/nginx.conf >"$work/local.conf" \
  || fail "scripts/gateway-conf.sh cannot rewrite deploy/nginx.conf"
for variant in docker local; do
  "$nginx" -t -q -p "$work/" -e stderr -c "$work/$variant.conf" -g "pid $work/nginx.pid;" \
    || fail "nginx -t rejects deploy/nginx.conf ($variant variant)"
done
echo "check-deploy: deploy/nginx.conf valid (nginx -t, as Docker runs it and as rewritten for 127.0.0.1)"
grep -E '^[[:space:]]*server[[:space:]]+([a-z-]+:[0-9]+|.*[[:space:]]resolve[[:space:];])' "$work/local.conf" && fail "gateway-conf.sh left Docker names in the local copy"

# The flood guard, live: nginx runs the local copy with nothing behind it (upstreams on
# 127.0.0.2, where nothing listens: 502); one client's burst past 200 gets 429 problem
# documents with Retry-After, before any service would be reached.
chmod 755 "$work"   # nginx's workers (another user when run as root) write temp files here
guard_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
scripts/gateway-conf.sh --port "$guard_port" --upstream-host 127.0.0.2 --run-dir "$work" deploy/nginx.conf >"$work/guard.conf"
"$nginx" -p "$work/" -e stderr -c "$work/guard.conf" -g "pid $work/guard.pid; daemon off;" >"$work/guard.log" 2>&1 &
guard_pid=$!
trap 'kill "$guard_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$guard_port" <<'PY' || { tail -n 5 "$work/guard.log" >&2; fail "the gateway's flood guard does not hold"; }
import http.client, json, sys, time
port = int(sys.argv[1])
deadline = time.time() + 10
while True:
    try:
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        probe.request("GET", "/health")
        probe.getresponse().read()
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("nginx did not start")
        time.sleep(0.05)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
statuses, refused = {}, None
for _ in range(400):
    connection.request("GET", "/v1/listings")
    response = connection.getresponse()
    body = response.read()
    statuses[response.status] = statuses.get(response.status, 0) + 1
    if response.status == 429 and refused is None:
        refused = (response.getheader("Content-Type"), response.getheader("Retry-After"), json.loads(body))
passed = sum(count for status, count in statuses.items() if status != 429)
problems = []
if not 200 <= passed < 400:
    problems.append(f"{passed} of 400 passed the guard; the burst is 200 (statuses {statuses})")
if refused is None:
    problems.append(f"no 429 in 400 requests (statuses {statuses})")
else:
    kind, retry, document = refused
    if kind != "application/problem+json" or retry != "1" or document.get("status") != 429 or not document.get("type", "").endswith("/rate-limited"):
        problems.append(f"the 429 is not a rate-limited problem document with Retry-After: 1: {refused}")
if problems:
    sys.exit("; ".join(problems))
print(f"check-deploy: the flood guard holds (400 requests from one address: {passed} passed, {statuses.get(429, 0)} got 429 problem documents)")
PY
# The merged API document is valid OpenAPI 3.1 (openapi-spec-validator, from PyPI); every
# service's own document comes from the same generator.
python3 -m openapi_spec_validator deploy/docs/openapi.json >/dev/null \
  || fail "deploy/docs/openapi.json is not a valid OpenAPI document (python3 -m openapi_spec_validator deploy/docs/openapi.json)"
echo "check-deploy: deploy/docs/openapi.json is valid OpenAPI 3.1 (openapi-spec-validator)"

# The API's documentation through the same gateway, in headless Chromium, once the burst's
# allowance has refilled: the committed merged document at /openapi.json, and the page at
# /docs/ rendering every operation (scripts/check-docs-page.py).
sleep 2
/usr/bin/python3 scripts/check-docs-page.py "http://127.0.0.1:$guard_port" \
  || { tail -n 5 "$work/guard.log" >&2; fail "the gateway's documentation page does not work"; }
# The web app through the same gateway: its page at / with the web app's headers, its files,
# and a folder of it or an unknown path as the same 404 problem document.
web_answer() { curl -s -o /dev/null -w '%{http_code} %{content_type}' "http://127.0.0.1:$guard_port$1"; }
[ "$(web_answer /)" = "200 text/html" ] && [ "$(web_answer /js/app.js)" = "200 text/javascript" ] \
  && [ "$(web_answer /js/)" = "404 application/problem+json" ] && [ "$(web_answer /no-such-page)" = "404 application/problem+json" ] \
  && curl -sI "http://127.0.0.1:$guard_port/" | grep -qi "^Content-Security-Policy: default-src 'self'" \
  || fail "the gateway does not serve the web app at / as it should (/, /js/app.js, /js/, an unknown path)"
# The installed app's manifest and service worker: their own types, and revalidated at every
# load (a browser that kept an old sw.js would never hear of a new version).
web_cache() { curl -sI "http://127.0.0.1:$guard_port$1" | tr -d '\r' | grep -i '^Cache-Control:' | cut -d' ' -f2-; }
[ "$(web_answer /manifest.webmanifest)" = "200 application/manifest+json" ] && [ "$(web_answer /sw.js)" = "200 text/javascript" ] \
  && [ "$(web_cache /manifest.webmanifest)" = "no-cache" ] && [ "$(web_cache /sw.js)" = "no-cache" ] \
  || fail "the gateway does not serve /manifest.webmanifest and /sw.js with their types and Cache-Control: no-cache"
echo "check-deploy: the gateway serves the web app at / with its policy, its manifest and service worker, and a folder or unknown path as a 404 problem"
python3 scripts/make-web-shell.py --check || fail "deploy/web/sw.js does not list the app shell as it is"
echo "check-deploy: deploy/web/sw.js lists the app shell as make-web-shell.py writes it"
kill "$guard_pid" 2>/dev/null; wait "$guard_pid" 2>/dev/null || true
# A POST that a stopping replica resets is sent again only with an Idempotency-Key.
python3 scripts/check-keyed-retry.py "$nginx" "$work" || fail "the gateway does not retry keyed POSTs as it should"

# 3. Agreement with StackKit. PyYAML comes with docker-compose; use a python3 that has it.
python=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import yaml' 2>/dev/null; then python=$candidate; break; fi
done
[ -n "$python" ] || fail "no python3 with PyYAML (apt-get install -y --no-install-recommends python3-yaml)"
"$python" - Tools/StackKit/ServiceTable.swift deploy/nginx.conf docker-compose.yml deploy/Dockerfile <<'PY' || fail "deployment files disagree with Tools/StackKit"
import os, re, sys, yaml
sys.path.insert(0, "scripts")
import stacktable

table_path, nginx_path, compose_path, dockerfile_path = sys.argv[1:5]
problems = []

# StackKit: StackService(name: "x", port: N, prefixes: ["/a", ...])
services = stacktable.services(table_path)
if len(services) != 5:
    problems.append(f"expected five services in {table_path}, found {sorted(services)}")

# nginx: one upstream group a service, then every location that proxies.
conf = re.sub(r'#.*', '', open(nginx_path).read())
upstreams = {}
for group, body in re.findall(r'upstream\s+([a-z-]+)\s*\{([^{}]*)\}', conf):
    servers = re.findall(r'server\s+([a-z-]+):(\d+)([^;]*);', body)
    if group not in services:
        problems.append(f"nginx upstream {group} is not a StackKit service")
        continue
    upstreams[group] = group
    if len(servers) != 1 or servers[0][0] != group:
        problems.append(f"nginx upstream {group} should have one server, {group}:<port>, not {servers}")
        continue
    name, port, parameters = servers[0]
    if services[name][0] != int(port):
        problems.append(f"nginx sends {name} to port {port}, StackKit says {services[name][0]}")
    if 'resolve' not in parameters.split():
        problems.append(f"nginx upstream {group}: its server needs `resolve`, or scaled and restarted replicas are never seen")
    if not re.search(r'\bzone\s+\S+\s+\S+;', body):
        problems.append(f"nginx upstream {group} needs a `zone` (`resolve` keeps its addresses there)")
    if not re.search(r'\bkeepalive\s+\d+;', body):
        problems.append(f"nginx upstream {group} needs `keepalive`, or every request opens a connection to its service")
routed = {}
for modifier, path, body in re.findall(r'location\s+(=|~|\^~)?\s*(\S+)\s*\{([^{}]*)\}', conf):
    target = re.search(r'proxy_pass\s+http://([a-z-]+);', body)
    if not target:
        continue
    service = upstreams.get(target.group(1))
    group = re.search(r'set\s+\$commons_group\s+([a-z-]+);', body)
    if group and group.group(1) != target.group(1):
        problems.append(f"location {path} retries keyed POSTs on {group.group(1)}, but proxies to {target.group(1)}")
    # Streams (GET) and unbuffered uploads (never resent) need none.
    if modifier != '~' and not re.search(r'proxy_(request_)?buffering\s+off', body) and not group:
        problems.append(f"location {path} should set $commons_group {target.group(1)} (a keyed POST is retried there)")
    if modifier == '~':
        # A regex route (server-sent events) must lie under one of its service's prefixes.
        literal = re.sub(r'\[\^/\]\+', 'x', path.lstrip('^').rstrip('$'))
        if not any(literal == p or literal.startswith(p + '/') for p in services.get(service, (0, []))[1]):
            problems.append(f"regex location {path} goes to {service}, outside its prefixes")
        continue
    key = ('=' if modifier == '=' else '') + path
    if key in routed and routed[key] != service:
        problems.append(f"location {key} routed twice")
    routed[key] = service
expected = {}
for name, (_, prefixes) in services.items():
    for p in prefixes:
        expected['=' + p] = name
        expected[p + '/'] = name
for key, name in sorted(expected.items()):
    if routed.get(key) != name:
        problems.append(f"nginx: location {key} should go to {name}, goes to {routed.get(key)}")
for key in sorted(set(routed) - set(expected)):
    # An exact route with settings of its own (a stream) must lie under its service's prefixes.
    path, name = key.lstrip('='), routed[key]
    if not (key.startswith('=') and any(path.startswith(p + '/') for p in services.get(name, (0, []))[1])):
        problems.append(f"nginx: location {key} is not a StackKit prefix of {name}")

# compose
compose = yaml.safe_load(open(compose_path))
svc = compose.get('services', {})
common = ['COMMONS_EVENT_STORE', 'COMMONS_DATA_DIR', 'COMMONS_HOST', 'COMMONS_ACCOUNTS_URL',
          'COMMONS_LOG_LEVEL', 'COMMONS_RATE_LIMIT_PER_MINUTE', 'COMMONS_TRUSTED_PROXIES']
if 'postgres' not in svc or 'healthcheck' not in svc['postgres']:
    problems.append("compose: postgres with a healthcheck is missing")
for name, (port, _) in services.items():
    s = svc.get(name)
    if s is None:
        problems.append(f"compose: no service {name}"); continue
    env = s.get('environment', {})
    if isinstance(env, list):
        env = dict(e.split('=', 1) for e in env)
    if str(env.get('COMMONS_PORT')) != str(port):
        problems.append(f"compose: {name} COMMONS_PORT is {env.get('COMMONS_PORT')}, StackKit says {port}")
    for key in common:
        if key not in env:
            problems.append(f"compose: {name} lacks {key}")
    if s.get('command') != [name]:
        problems.append(f"compose: {name} should run command [{name}]")
    for key in ('ports', 'container_name'):
        if key in s:
            problems.append(f"compose: {name} has {key}, which breaks --scale")
    if 'healthcheck' not in s or '/health' not in str(s['healthcheck'].get('test', '')) and 'commons-healthcheck' not in str(s['healthcheck'].get('test', '')):
        problems.append(f"compose: {name} has no readiness healthcheck")
    deps = s.get('depends_on', {})
    wanted = ['postgres'] + ([] if name == 'accounts' else ['accounts'])
    for dep in wanted:
        if not isinstance(deps, dict) or deps.get(dep, {}).get('condition') != 'service_healthy':
            problems.append(f"compose: {name} should depend on {dep} being healthy")
    if not s.get('volumes'):
        problems.append(f"compose: {name} has no data volume")
for name, s in svc.items():
    options = (s.get('logging') or {}).get('options') or {}
    if 'max-size' not in options or 'max-file' not in options:
        problems.append(f"compose: {name} has no log rotation (logging.options max-size and max-file)")
gateway = svc.get('nginx', {})
# The upstream servers' `resolve` came to nginx open source in 1.27.3.
version = re.match(r'nginx:(\d+)\.(\d+)(?:\.(\d+))?', str(gateway.get('image', '')))
if not version or tuple(int(v or 0) for v in version.groups()) < (1, 27, 3):
    problems.append(f"compose: nginx's image should be nginx 1.27.3 or later (upstream `resolve`), not {gateway.get('image')!r}")
if not any(str(p).endswith(':8080') for p in gateway.get('ports', [])):
    problems.append("compose: nginx should publish port 8080")
if not any('deploy/nginx.conf' in str(v) for v in gateway.get('volumes', [])):
    problems.append("compose: nginx should mount deploy/nginx.conf")
seed = svc.get('seed', {})
if seed.get('profiles') != ['seed'] or 'seed' not in (seed.get('command') or []):
    problems.append("compose: a one-shot seed service behind profiles: [seed] is missing")

# Dockerfile
docker = open(dockerfile_path).read()
stages = re.findall(r'^FROM\s+(\S+)', docker, re.M)
if len(stages) < 2 or not stages[0].startswith('swift:'):
    problems.append(f"Dockerfile: expected a swift: build stage and a runtime stage, found {stages}")
listed = re.search(r'^ARG EXECUTABLES="([^"]*)"', docker, re.M)
missing = set(services) | {'commons'} if not listed else (set(services) | {'commons'}) - set(listed.group(1).split())
if missing:
    problems.append(f"Dockerfile: EXECUTABLES lacks {sorted(missing)}")
users = re.findall(r'^USER\s+(\S+)', docker, re.M)
if not users or users[-1].split(':')[0] in ('root', '0'):
    problems.append("Dockerfile: the runtime stage must end on a non-root USER")
for keyword in ('VOLUME', 'HEALTHCHECK'):
    if not re.search(rf'^{keyword}\s', docker, re.M):
        problems.append(f"Dockerfile: no {keyword}")
for source in re.findall(r'^COPY\s+(?:--chmod=\S+\s+)?(deploy/\S+)', docker, re.M):
    if not os.path.exists(source):
        problems.append(f"Dockerfile: copies {source}, which does not exist")

# The web app's headers: nginx's `location /` sends WebAppHeaders.swift's values.
web_headers_swift = open(os.path.join(os.path.dirname(table_path), "WebAppHeaders.swift")).read()
csp = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', re.search(r'contentSecurityPolicy =\s*(.*?)\n\n', web_headers_swift, re.S).group(1)))
wanted = {"Content-Security-Policy": csp}
wanted.update({name: value for name, value in re.findall(r'\("([A-Za-z-]+)", "([^"]+)"\)', web_headers_swift)})
root = re.search(r'location / \{(.*?)\n        \}', conf, re.S)
sent = {name: value.strip('"') for name, value in re.findall(r'add_header\s+([A-Za-z-]+)\s+("[^"]*"|\S+)\s+always;', root.group(1))} if root else {}
for name, value in wanted.items():
    if sent.get(name) != value:
        problems.append(f"nginx: location / sends {name}: {sent.get(name)!r}, WebAppHeaders.swift says {value!r}")

for p in problems:
    print("check-deploy: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-deploy: nginx.conf, docker-compose.yml and the Dockerfile agree with StackKit ({len(services)} services, "
      f"{sum(len(p) for _, p in services.values())} prefixes)")
PY

# 4. Observability: Prometheus, its alerts, the Grafana dashboards.
promtool=$(command -v promtool || true)
[ -n "$promtool" ] || fail "promtool not found (apt-get install -y --no-install-recommends prometheus)"
observability=deploy/observability
{ "$promtool" check config "$observability/prometheus.yml" && "$promtool" check rules "$observability/alerts.yml"; } >"$work/promtool.log" 2>&1 \
  || { cat "$work/promtool.log" >&2; fail "promtool rejects $observability/prometheus.yml or its rules"; }
"$promtool" test rules "$observability/alerts.test.yml" >"$work/promtool.log" 2>&1 \
  || { cat "$work/promtool.log" >&2; fail "the alert rules fail their unit tests ($observability/alerts.test.yml)"; }
"$python" "$observability/make-dashboards.py" "$work/dashboards" || fail "make-dashboards.py failed"
diff -r "$work/dashboards" "$observability/grafana/dashboards" >&2 \
  || fail "$observability/grafana/dashboards differs from make-dashboards.py's output (run it and commit the result)"
"$python" - "$observability" "$work/queries.yml" Tools/StackKit/ServiceTable.swift <<'PY' || fail "observability files name unknown metrics or disagree with StackKit"
import glob, json, os, re, sys, yaml
sys.path.insert(0, "scripts")
import stacktable

observability, queries_path, table_path = sys.argv[1:4]
problems = []

# The metrics the services register through swift-metrics; a Timer is a histogram in
# swift-prometheus, exposed as _bucket, _sum and _count.
known = set()
sources = glob.glob("Shared/**/*.swift", recursive=True) + glob.glob("Services/**/*.swift", recursive=True)
for path in sources:
    for kind, name in re.findall(r'\b(Timer|Gauge|Counter|Recorder|Meter)\(\s*label: "(\w+)"', open(path).read()):
        known |= {name + suffix for suffix in ("_bucket", "_sum", "_count")} if kind == "Timer" else {name}
if not known:
    problems.append("no metrics found in Shared/ or Services/")

def metrics_in(expr):
    """The metric names in a PromQL expression: what is left once strings, label
    matchers, ranges, groupings and function calls are taken out."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    expr = re.sub(r'\{[^}]*\}|\[[^\]]*\]', ' ', expr)
    expr = re.sub(r'\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)', ' ', expr)
    names = re.findall(r'(?<![\w.$])([A-Za-z_:][\w:]*)\b(?!\s*\()', expr)
    return {n for n in names if n not in ("and", "or", "unless", "bool", "offset", "inf", "nan")}

expressions = []
for path in sorted(glob.glob(os.path.join(observability, "grafana", "dashboards", "*.json"))):
    for panel in json.load(open(path)).get("panels", []):
        for target in panel.get("targets", []):
            expressions.append((f"{os.path.basename(path)}: {panel.get('title')}", target["expr"]))
for group in yaml.safe_load(open(os.path.join(observability, "alerts.yml")))["groups"]:
    for rule in group["rules"]:
        expressions.append((f"alerts.yml: {rule['alert']}", rule["expr"]))
for where, expr in expressions:
    for name in sorted(metrics_in(expr) - known):
        problems.append(f"{where}: {name} is not a metric the services register")

# Dashboard queries as recording rules, for promtool to parse.
rules = [{"record": f"dashboard_query_{i}", "expr": expr.replace("$__rate_interval", "1m")}
         for i, (where, expr) in enumerate(expressions) if not where.startswith("alerts.yml")]
yaml.safe_dump({"groups": [{"name": "dashboards", "rules": rules}]}, open(queries_path, "w"))

# One scrape job per StackKit service, named as it, on its port; one dashboard each.
services = {name: port for name, (port, _) in stacktable.services(table_path).items()}
jobs = {}
for job in yaml.safe_load(open(os.path.join(observability, "prometheus.yml")))["scrape_configs"]:
    for sd in job.get("dns_sd_configs", []):
        jobs[job["job_name"]] = (sd.get("names"), sd.get("type"), sd.get("port"))
for name, port in services.items():
    if jobs.get(name) != ([name], "A", port):
        problems.append(f"prometheus.yml: job {name} should resolve {name} (type A) on port {port}, has {jobs.get(name)}")
for name in sorted(set(jobs) - set(services)):
    problems.append(f"prometheus.yml: job {name} is not a StackKit service")
dashboards = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(observability, "grafana", "dashboards", "*.json"))}
if dashboards != set(services):
    problems.append(f"dashboards {sorted(dashboards)} are not one per StackKit service {sorted(services)}")

for p in problems:
    print("check-deploy: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-deploy: {len(expressions)} queries of the dashboards and alerts name only the services' metrics "
      f"({len(known)} series names), and prometheus.yml scrapes StackKit's {len(services)} services")
PY
"$promtool" check rules "$work/queries.yml" >"$work/promtool.log" 2>&1 \
  || { cat "$work/promtool.log" >&2; fail "a dashboard query does not parse"; }
"${compose[@]}" -f docker-compose.yml --profile observability config -q \
  || fail "${compose[*]} config rejects docker-compose.yml with the observability profile"
echo "check-deploy: $observability valid (promtool check config, check rules and test rules; dashboards as make-dashboards.py writes them; compose --profile observability config -q)"

# 5. The Kubernetes manifests.
scripts/check-kubernetes.sh || fail "the Kubernetes manifests (scripts/check-kubernetes.sh)"

echo "check-deploy: all passed"
