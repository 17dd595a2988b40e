#!/usr/bin/env bash
# Builds the Python wheel that carries the reqlint binary, as the published wheels are
# built (`maturin build --locked --profile dist`), installs it into a fresh virtual
# environment without any index, and runs the installed `reqlint` from there: its
# version, a lint of fixtures/ (exit 1: they include bad files) and the JSON report.
# Then, unless REQLINT_WHEEL_SKIP_SOURCE=1, `pip install .` into another fresh virtual
# environment (the source install: maturin from PyPI, the `release` profile).
#
# Usage: tests/it/support/wheel.sh
#   REQLINT_WHEEL_DIR   where the wheel is written (default: target/wheels); the pre-commit
#                       test (tests/it/support/precommit.sh) installs the wheel hook from there
#   CARGO_TARGET_DIR    Cargo's target directory, as usual: the binary of the wheel is also
#                       left at $CARGO_TARGET_DIR/dist/reqlint (default: target/dist/reqlint)
#   MATURIN             a maturin to use; else `maturin` on PATH, else one pip-installs
#                       from PyPI into a throwaway virtual environment
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "error: no version in Cargo.toml" >&2; exit 1; }
out=${REQLINT_WHEEL_DIR:-$root/target/wheels}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "error: $*" >&2; echo "wheel: $passed passed, 1 failed"; exit 1; }

maturin=${MATURIN:-}
if [ -z "$maturin" ]; then
    if command -v maturin >/dev/null; then
        maturin=$(command -v maturin)
    else
        echo "== maturin is not installed: installing it from PyPI into a throwaway venv"
        python3 -m venv "$work/maturin"
        "$work/maturin/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.9,<2'
        maturin=$work/maturin/bin/maturin
    fi
fi
"$maturin" --version

echo "== maturin build --locked --profile dist (the published wheels' build)"
mkdir -p "$out"
rm -f "$out"/reqlint_cli-"$version"-*.whl
start=$(date +%s)
"$maturin" build --locked --profile dist --out "$out"
echo "built in $(( $(date +%s) - start )) s"
shopt -s nullglob
wheels=("$out"/reqlint_cli-"$version"-*.whl)
shopt -u nullglob
[ "${#wheels[@]}" -eq 1 ] || fail "expected one reqlint_cli-$version wheel in $out, found ${#wheels[@]}"
wheel=${wheels[0]}
echo "wheel: $wheel ($(du -k "$wheel" | cut -f1) KiB)"
# A binary wheel for any Python 3 (`py3-none-<platform>`), holding the executable as a
# script and the metadata, nothing else.
case "$(basename "$wheel")" in
    reqlint_cli-"$version"-py3-none-*.whl) ok "wheel tag $(basename "$wheel" .whl | cut -d- -f3-)" ;;
    *) fail "unexpected wheel name $(basename "$wheel")" ;;
esac
python3 - "$wheel" "$version" <<'PY' || fail "the wheel's contents"
import sys, zipfile
wheel, version = sys.argv[1], sys.argv[2]
names = zipfile.ZipFile(wheel).namelist()
script = f"reqlint_cli-{version}.data/scripts/reqlint"
assert script in names, f"{script} not in {names}"
others = [n for n in names if n != script and not n.startswith(f"reqlint_cli-{version}.dist-info/")]
assert not others, f"unexpected files in the wheel: {others}"
PY
ok "the wheel holds the reqlint executable and its metadata only"
target_dir=${CARGO_TARGET_DIR:-$root/target}
[ -x "$target_dir/dist/reqlint" ] || fail "no binary at $target_dir/dist/reqlint"
ok "the host binary is at $target_dir/dist/reqlint"

echo "== pip install of the wheel into a fresh virtual environment (no index)"
python3 -m venv "$work/venv"
start=$(date +%s.%N)
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
echo "installed in $(python3 -c "print(round($(date +%s.%N) - $start, 2))") s"

check_installed() {  # VENV: reqlint on the venv's PATH, its version, a lint of fixtures/
    local venv=$1 found status
    found=$(PATH="$venv/bin:$PATH" command -v reqlint)
    [ "$found" = "$venv/bin/reqlint" ] || fail "reqlint on PATH is $found, not $venv/bin/reqlint"
    ok "reqlint is on the virtual environment's PATH"
    PATH="$venv/bin:$PATH" reqlint --version | tee "$work/version.txt"
    grep -qx "reqlint $version" "$work/version.txt" || fail "reqlint --version is not 'reqlint $version'"
    ok "reqlint --version"
    status=0
    PATH="$venv/bin:$PATH" reqlint check fixtures/ > "$work/human.txt" || status=$?
    # The fixtures include deliberately bad files: 1 is expected; 2 (or a crash) is not.
    [ "$status" -eq 1 ] || { tail -n 20 "$work/human.txt"; fail "reqlint check fixtures/ exited with $status, expected 1"; }
    ok "reqlint check fixtures/ exited with 1 ($(wc -l < "$work/human.txt") lines of report)"
    status=0
    PATH="$venv/bin:$PATH" reqlint check fixtures/ --format json > "$work/report.json" || status=$?
    [ "$status" -eq 1 ] || fail "reqlint check fixtures/ --format json exited with $status, expected 1"
    python3 - "$work/report.json" <<'PY' || fail "the JSON report"
import json, sys
report = json.load(open(sys.argv[1]))
diagnostics, summary = report["diagnostics"], report["summary"]
assert diagnostics and summary["files"] > 0 and summary["errors"] > 0, summary
assert all({"file", "rule", "severity", "message", "span"} <= set(d) for d in diagnostics)
print(f"{len(diagnostics)} diagnostics in {summary['files']} files")
PY
    ok "the JSON report parses"
}
check_installed "$work/venv"

if [ "${REQLINT_WHEEL_SKIP_SOURCE:-}" != 1 ]; then
    echo "== pip install . into a fresh virtual environment (a source build, maturin from PyPI)"
    python3 -m venv "$work/source"
    start=$(date +%s)
    "$work/source/bin/pip" install --quiet --disable-pip-version-check .
    echo "installed in $(( $(date +%s) - start )) s"
    check_installed "$work/source"
fi
echo "wheel: $passed passed, 0 failed"
