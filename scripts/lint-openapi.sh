#!/bin/sh
# Lints the OpenAPI document the shop serves (derived from the declarations in
# packages/core/src/wire/calls/) with Redocly CLI (redocly.yaml) and Spectral (.spectral.yaml,
# spectral:oas). Exits non-zero on any error or warning. Usage: scripts/lint-openapi.sh
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node --conditions=source --import tsx scripts/openapi-document.ts https://shop.subshare.test > "$out/openapi.json"
npx --no-install redocly lint "$out/openapi.json" --config redocly.yaml --max-problems 1000
npx --no-install spectral lint "$out/openapi.json" --ruleset .spectral.yaml --fail-severity warn
