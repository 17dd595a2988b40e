#!/usr/bin/env bash
# The catalog-size benchmark: a single-file run with a catalog ten times the size of
# catalog/ must start within 1 ms of a run with catalog/ itself (tables are compiled in,
# not parsed at run time).
#
#   bench/catalog_scale.sh [TIMES]        (default 10)
#
# Builds the published binaries' build (`--profile dist`) twice (the second with REQLINT_CATALOG_DIR pointing at a
# catalog written by bench/gen_catalog.py, in target/catalog-scale), checks that both
# give the same verdicts on fixtures/, and times one file with each, interleaved
# (bench/interleave.py, median of 41 runs). Exit 1: the timing target is not met;
# exit 2: the builds disagree or something failed. The two binaries stay in the target
# folder for bench/startup_counts.sh (.ci/run runs it next: start-up counted).
set -euo pipefail
cd "$(dirname "$0")/.."
times="${1:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 bench/gen_catalog.py --times "$times" --out "$work/catalog"
target="${CARGO_TARGET_DIR:-target}"
cargo build --profile dist --locked --quiet
REQLINT_CATALOG_DIR="$work/catalog" CARGO_TARGET_DIR="$target/catalog-scale" \
    cargo build --profile dist --locked --quiet
small="$target/dist/reqlint"
large="$target/catalog-scale/dist/reqlint"

rows() { grep -c -v '^#' "$1"; }
echo "catalog rows: code-hosting $(rows catalog/codehost/permissions.tsv) -> $(rows "$work/catalog/codehost/permissions.tsv"), advertising operations $(rows catalog/advertising/operations.tsv) -> $(rows "$work/catalog/advertising/operations.tsv"), params.yaml lines $(wc -l < catalog/advertising/params.yaml) -> $(wc -l < "$work/catalog/advertising/params.yaml"), host endpoint rows $(rows catalog/codehost/endpoints.tsv) -> $(rows "$work/catalog/codehost/endpoints.tsv"), graph fields $(rows catalog/advertising/graph/fields.tsv) -> $(rows "$work/catalog/advertising/graph/fields.tsv"), graph params $(rows catalog/advertising/graph/params.tsv) -> $(rows "$work/catalog/advertising/graph/params.tsv")"
echo "binary size: $(stat -c %s "$small") -> $(stat -c %s "$large") bytes"

if ! diff <("$small" check fixtures/ --format concise) <("$large" check fixtures/ --format concise) >/dev/null; then
    echo "error: the two builds give different verdicts on fixtures/"
    exit 2
fi

file=fixtures/adset-dsa-not-eu/bad.req.yaml
mapfile -t medians < <(python3 bench/interleave.py --runs 41 --warmup 3 -- \
    "$small check $file" "$large check $file")
t_small="${medians[0]}"
t_large="${medians[1]}"
python3 - "$t_small" "$t_large" "$times" <<'PY'
import sys
small, large, times = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
delta = (large - small) * 1000
verdict = "met" if delta <= 1.0 else "NOT MET"
print(f"one file, catalog x1: {small*1000:.2f} ms; catalog x{times}: {large*1000:.2f} ms")
print(f"{'catalog x' + times + ' within 1 ms of x1':<58} {verdict:<8} {delta:+.2f} ms")
sys.exit(0 if verdict == "met" else 1)
PY
