#!/usr/bin/env bash
# Runs the web app's browser tests (Tests/Browser, one per journey, each at phone and laptop
# size, three journeys at once) in Debian's headless Chromium against the whole stack:
# `commons up` of the debug build with its demo data, on free ports, in a scratch directory.
#
#   scripts/check-web.sh [unittest arguments, e.g. test_free.FreeThingsNearMe]
#
# Screenshots of each main page at phone size go to docs/screenshots/web-*.png (docs/web-app.md
# shows them); a failing test leaves its last picture in .build/web-failures/. Needs
# chromium, chromium-driver and python3-selenium (Debian), and axe-selenium-python (PyPI) for
# axe-core. Exits non-zero on any failure, printing the stack's warnings and errors;
# COMMONS_KEEP_WEB_LOG=FILE keeps the whole `commons up` log there.
set -euo pipefail
cd "$(dirname "$0")/.."

axe_dir=$(python3 -c 'import importlib.util, os; s = importlib.util.find_spec("axe_selenium_python"); print(os.path.dirname(s.origin) if s else "")')
[ -n "$axe_dir" ] || { echo "check-web: axe-selenium-python not found (python3 -m pip install axe-selenium-python)" >&2; exit 1; }
export AXE_SCRIPT="$axe_dir/node_modules/axe-core/axe.min.js"
command -v chromium >/dev/null || { echo "check-web: chromium not found (apt-get install chromium chromium-driver python3-selenium)" >&2; exit 1; }

work=$(mktemp -d /tmp/commons-check-web.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
offset=$((20000 + RANDOM % 20000))
# The journeys sign up some fifty people a minute between them (one asks twenty-one to request one item).
# The console's journey hides a listing with the reports of people it has just signed up, whose
# reports would otherwise weigh next to nothing for a week.
COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE=${COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE:-600} \
COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS=${COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS:-0} \
  .build/debug/commons up --data-dir "$work/data" --gateway-port "$port" --port-offset "$offset" >"$work/up.log" 2>&1 &
up=$!
trap 'kill "$up" 2>/dev/null; wait "$up" 2>/dev/null; [ -n "${COMMONS_KEEP_WEB_LOG:-}" ] && cp "$work/up.log" "$COMMONS_KEEP_WEB_LOG"; rm -rf "$work"' EXIT
export COMMONS_WEB_URL="http://127.0.0.1:$port" COMMONS_WEB_DATA_DIR="$work/data"
# Ready, with the demo data in (commons up marks the data directory "seeded" when it is).
for _ in $(seq 1 240); do [ -f "$work/data/seeded" ] && break; sleep 1; done
[ -f "$work/data/seeded" ] && curl -sf "$COMMONS_WEB_URL/health/ready" >/dev/null \
  || { tail -n 20 "$work/up.log" >&2; echo "check-web: the stack did not get ready with its demo data" >&2; exit 1; }

cd Tests/Browser
if [ $# -gt 0 ]; then
  /usr/bin/python3 -m unittest -v "$@"
else
  # Three journeys at once, after the few that need the stack to themselves (run_journeys.py).
  /usr/bin/python3 run_journeys.py
fi || {
  tail -n 30 "$work/up.log" >&2
  # What went wrong behind the gateway: its warnings (a service that did not answer) and
  # any service that exited, which the requests' lines above would not show.
  echo "check-web: the stack's warnings and errors:" >&2
  grep -E '"level":"(warning|error|critical)"|level=(warning|error|critical)| (warning|error|critical) |exited|restart' "$work/up.log" | tail -n 40 >&2
  echo "check-web: FAILED" >&2
  exit 1
}
echo "check-web: every journey passed in headless Chromium at phone and laptop size"
