#!/usr/bin/env bash
# The house style is `swift format` (the toolchain's) with the repository's .swift-format;
# see docs/development.md, "House style". This checks every Swift file (CI runs it);
# `scripts/check-format.sh --fix` rewrites them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Shared Services Tools Tests Clients)
if [ "${1:-}" = --fix ]; then
  exec swift format format --in-place --recursive --parallel "${paths[@]}"
fi
swift format lint --strict --recursive --parallel "${paths[@]}" || {
  echo "check-format: run scripts/check-format.sh --fix, then commit" >&2
  exit 1
}
