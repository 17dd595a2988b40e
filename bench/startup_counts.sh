#!/usr/bin/env bash
# Start-up against catalog size, counted: two builds of reqlint, one with catalog/ and one
# with a larger generated catalog (bench/gen_catalog.py), must start alike. The compiled
# tables hold no pointer, so the loader has nothing more to relocate in the larger one,
# and a run touches only the pages its lookups read.
#
#   bench/startup_counts.sh SMALL LARGE [MAX_EXTRA_FAULTS]      (default 24)
#
# Prints, for each binary, the load-time relocations (`readelf -r`), the size of
# `.data.rel.ro`, and the page faults (the fewest of 7 runs, `/usr/bin/time -f %R`) of
# `--version` and of a one-file check of each API. Counts only, never times.
# Exit 1: the larger catalog adds relocations, or more than MAX_EXTRA_FAULTS page faults
# to a run; exit 2: a tool is missing or a binary does not run.
set -euo pipefail
cd "$(dirname "$0")/.."
small="$1"
large="$2"
max_extra="${3:-24}"
for tool in readelf /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "error: $tool is needed"; exit 2; }
done
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

relocations() { readelf -r --wide "$1" | grep -c 'R_X86_64' || true; }
rel_ro() {
    local size
    size="$(readelf -S --wide "$1" | sed -n 's/.* \.data\.rel\.ro  *[A-Z]*  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p' | head -1)"
    echo "$((16#${size:-0}))"
}
# The fewest minor page faults of 7 runs (the first run may fault more: the page cache).
faults() {
    local best="" n
    for _ in 1 2 3 4 5 6 7; do
        /usr/bin/time -o "$out" -f '%R' "$@" >/dev/null 2>&1 || true
        n="$(tail -1 "$out")"
        [[ "$n" =~ ^[0-9]+$ ]] || { echo "error: $* did not run"; exit 2; }
        if [ -z "$best" ] || [ "$n" -lt "$best" ]; then best="$n"; fi
    done
    echo "$best"
}

runs=(
    "--version|--version"
    "one Marketing API file|check fixtures/adset-both-budgets/bad.req.yaml --no-cache"
    "one code-hosting file|check fixtures/token-missing-permission/admin-level.req.yaml --no-cache"
)
status=0
printf '%-36s %12s %12s %8s\n' "count" "catalog" "larger" "change"
row() {
    local name="$1" a="$2" b="$3"
    printf '%-36s %12s %12s %+8d\n' "$name" "$a" "$b" "$((b - a))"
}
r_small="$(relocations "$small")"
r_large="$(relocations "$large")"
row "load-time relocations" "$r_small" "$r_large"
if [ "$r_large" -gt "$r_small" ]; then
    echo "  NOT MET: the larger catalog adds relocations (a table holds pointers)"
    status=1
fi
row ".data.rel.ro bytes" "$(rel_ro "$small")" "$(rel_ro "$large")"
for run in "${runs[@]}"; do
    name="${run%%|*}"
    read -r -a args <<<"${run#*|}"
    f_small="$(faults "$small" "${args[@]}")"
    f_large="$(faults "$large" "${args[@]}")"
    row "page faults: $name" "$f_small" "$f_large"
    if [ "$((f_large - f_small))" -gt "$max_extra" ]; then
        echo "  NOT MET: more than $max_extra page faults added by the larger catalog"
        status=1
    fi
done
exit "$status"
