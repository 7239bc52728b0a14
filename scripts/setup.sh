#!/usr/bin/env bash
# Installs what Commons needs on a Debian machine with Swift 6.3, and nothing that is there
# already. The one list of the project's system and Python packages:
#
#   scripts/setup.sh run    to build and run the stack (`make run`)
#   scripts/setup.sh test   that, and what the tests and CI's checks use (`make test`, .ci/run)
#
# As root it installs with apt-get (running `apt-get update` once when a package cannot be
# found) and pip; otherwise with sudo when sudo needs no password; else it stops, naming the
# one command to run. On a machine that has everything it only looks, in well under a second.
set -euo pipefail

usage() { echo "usage: scripts/setup.sh run|test" >&2; exit 2; }
[ $# -eq 1 ] || usage

# Debian packages, each as PACKAGE or PACKAGE:COMMAND (then the command on the PATH is
# enough, whichever package brought it).
run_packages=(
  make:make           # the two commands
  libsqlite3-dev      # the embedded event log and every read model (GRDB)
  libvips-dev         # photos: decoded, cleaned and resized (HEIF through libheif)
  libpq-dev           # the event log's PostgreSQL store on libpq (linked by every executable)
)
test_packages=(
  postgresql                          # the event log's other backend, a throwaway cluster per run
  libimage-exiftool-perl:exiftool     # tests write GPS into real photos
  libheif-examples:heif-enc           # tests make HEIC photos
  gdb                                 # backtraces of a test run that stalls (scripts/watch-tests.py)
  curl                                # readiness checks in the scripts
  nginx-light:nginx                   # the production gateway in the end-to-end suite, `nginx -t`
  docker-compose                      # validates docker-compose.yml without a Docker engine
  python3-yaml                        # the deployment checks read the compose file
  prometheus:promtool                 # checks and unit-tests the alert rules
  chromium chromium-driver            # the web app's journeys in headless Chromium
  python3-selenium                    # drives Chromium (Debian's python3)
  wrk                                 # the HTTP load of `commons bench` (its tests and `make bench`)
)
# Not installed here: kubectl (1.27 or later), which scripts/check-kubernetes.sh renders the
# Kubernetes manifests with. Debian's kubernetes-client is 1.20, whose kustomize cannot render
# components; install it from Kubernetes' own packages (https://kubernetes.io/docs/tasks/tools/).

# PyPI packages for `python3 -m pip`, each as PACKAGE:MODULE (PACKAGE may pin a version).
test_python=(
  openapi-spec-validator:openapi_spec_validator  # the merged API document is valid OpenAPI
  schemathesis:schemathesis                      # the running stack against that document
  axe-selenium-python:axe_selenium_python        # axe-core, for the web app's accessibility
  kubernetes-validate==1.37.0:kubernetes_validate  # the Kubernetes manifests against Kubernetes' schemas, offline
  checkov==3.3.30:checkov                          # the Kubernetes manifests' security linter, offline
)

case "$1" in
  run) packages=("${run_packages[@]}"); python_packages=() ;;
  test) packages=("${run_packages[@]}" "${test_packages[@]}"); python_packages=("${test_python[@]}") ;;
  *) usage ;;
esac

# What is missing: one dpkg-query for every package, one python3 for every module.
missing=()
names=()
for entry in "${packages[@]}"; do names+=("${entry%%:*}"); done
# dpkg-query fails for a package it has never heard of, after listing the others.
installed=" $({ dpkg-query -W -f='${db:Status-Status}:${Package}\n' "${names[@]}" 2>/dev/null || true; } \
  | sed -n 's/^installed:\([^:]*\).*/\1/p' | tr '\n' ' ') "
for entry in "${packages[@]}"; do
  package=${entry%%:*}
  [[ $installed == *" $package "* ]] && continue
  [[ $entry == *:* ]] && command -v "${entry#*:}" >/dev/null 2>&1 && continue
  missing+=("$package")
done

missing_python=()
if [ ${#python_packages[@]} -gt 0 ]; then
  command -v python3 >/dev/null || missing+=(python3 python3-pip)
  modules=()
  for entry in "${python_packages[@]}"; do modules+=("${entry#*:}"); done
  absent=" $(python3 -c 'import importlib.util, sys
print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))' "${modules[@]}" 2>/dev/null \
    || echo "${modules[*]}") "
  for entry in "${python_packages[@]}"; do
    [[ $absent == *" ${entry#*:} "* ]] && missing_python+=("${entry%%:*}")
  done
fi

[ ${#missing[@]} -eq 0 ] && [ ${#missing_python[@]} -eq 0 ] && exit 0

# Who may install: root, or sudo without a password.
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo)
else
  command=""
  [ ${#missing[@]} -gt 0 ] && command="sudo apt-get install -y --no-install-recommends ${missing[*]}"
  [ ${#missing_python[@]} -gt 0 ] && command="${command:+$command && }python3 -m pip install --user ${missing_python[*]}"
  echo "setup: missing packages; run: $command" >&2
  exit 1
fi

log=$(mktemp /tmp/commons-setup.XXXXXX)
trap 'rm -f "$log"' EXIT
fail() { tail -n 20 "$log" >&2; echo "setup: $1" >&2; exit 1; }

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} (Debian; a minute or a few)" >&2
  apt_install=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends)
  # A package not found usually means an old or empty package list: update it once.
  if ! "${apt_install[@]}" "${missing[@]}" >"$log" 2>&1; then
    "${as_root[@]}" apt-get update -q >>"$log" 2>&1 || fail "apt-get update failed"
    "${apt_install[@]}" "${missing[@]}" >>"$log" 2>&1 || fail "apt-get install ${missing[*]} failed"
  fi
fi

if [ ${#missing_python[@]} -gt 0 ]; then
  echo "setup: installing ${missing_python[*]} (PyPI)" >&2
  pip_install=(python3 -m pip install --quiet --disable-pip-version-check)
  [ "$(id -u)" -eq 0 ] || pip_install+=(--user)
  for package in "${missing_python[@]}"; do
    # axe-selenium-python is only read for the axe-core script it carries: its own
    # dependencies (a second selenium) would shadow Debian's.
    extra=()
    [ "$package" = axe-selenium-python ] && extra=(--no-deps)
    "${pip_install[@]}" "${extra[@]}" "$package" >>"$log" 2>&1 || fail "pip install $package failed"
  done
fi
echo "setup: done" >&2
