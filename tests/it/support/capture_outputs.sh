#!/usr/bin/env bash
# Everything reqlint shows for the bundled fixtures, one file per output, to compare two
# builds byte for byte (a refactoring must not change what users see):
#
#   tests/it/support/capture_outputs.sh OLD_BINARY /tmp/before
#   tests/it/support/capture_outputs.sh NEW_BINARY /tmp/after
#   diff -r /tmp/before /tmp/after
#
# For every fixture file: each report format (human, concise, json, sarif, github) and
# `--diff --unsafe-fixes`, each with its exit code; the whole fixtures/ tree in each
# format; `reqlint rules`, `explain` of every rule, and both JSON schemas. Run it from the
# same checkout for both binaries (the fixtures are the inputs).
set -uo pipefail
bin=$1
out=$2
cd "$(dirname "$0")/../../.." || exit 1
rm -rf "$out"
mkdir -p "$out"
find fixtures -type f ! -name '*.out' ! -name '*.fixed' ! -name '*.diff' | sort >"$out/files.txt"
while read -r file; do
    key=$(echo "$file" | tr '/' '_')
    for format in human concise json sarif github; do
        "$bin" check "$file" --format "$format" --color never --no-cache >"$out/$key.$format" 2>&1
        echo "exit $?" >>"$out/$key.$format"
    done
    "$bin" check "$file" --diff --unsafe-fixes --color never --no-cache >"$out/$key.diff" 2>&1
    echo "exit $?" >>"$out/$key.diff"
done <"$out/files.txt"
for format in human concise json sarif github; do
    "$bin" check fixtures --format "$format" --color never --no-cache >"$out/all.$format" 2>&1
    echo "exit $?" >>"$out/all.$format"
done
"$bin" rules >"$out/rules.txt" 2>&1
for rule in $("$bin" rules | tail -n +2 | awk '{print $1}'); do
    "$bin" explain "$rule" >"$out/explain.$rule" 2>&1
done
"$bin" schema config >"$out/schema.config.json" 2>&1
"$bin" schema request >"$out/schema.request.json" 2>&1
