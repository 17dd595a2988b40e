#!/usr/bin/env bash
# The anchors' same-run comparison (BENCHMARKS.md, issue 31): what a user would otherwise
# run on the same 10,000 request files -- Spectral, check-jsonschema and yamllint -- timed in
# one run, interleaved with reqlint, each doing a job like reqlint's:
#
#   yamllint          syntax-level rules only (syntax errors, duplicate keys, undeclared
#                     aliases), on the YAML files and the JSON files (JSON is YAML);
#   check-jsonschema  reqlint's own request-file schema, schemas/request.schema.json, on
#                     the YAML and the JSON files;
#   Spectral          a small ruleset written here: unknown top-level keys (the keys the
#                     request schema allows), the request line's method, the `api-version`
#                     and `method` enums and the token's permission levels.
#
# Each runs single-threaded, as it does; reqlint runs as a user runs it (its two threads)
# and with `--threads 1`, both with `--no-cache`. Prints one line per tool: the median wall
# seconds and the ratio to reqlint. Not run in CI; no test asserts a time.
#
#   bench/anchors.sh                 # 3 timed runs a tool after one warm-up; about 8 minutes
#   RUNS=5 bench/anchors.sh
#   REQLINT=target/dist/reqlint bench/anchors.sh
#
# The tools are installed once, at pinned versions, under $BENCH_DIR/anchors (a Python
# venv and an npm prefix); a tool whose install or smoke check fails is skipped with a
# message. Needs python3 (with venv), npm and node.
set -euo pipefail
cd "$(dirname "$0")/.."

YAMLLINT_VERSION=1.38.0
CHECK_JSONSCHEMA_VERSION=0.39.0
SPECTRAL_VERSION=6.16.3

gen=${GEN_CORPUS:-../shared/bench/gen_corpus.py}
work=${BENCH_DIR:-/tmp/reqlint-bench}
anchors=$work/anchors
runs=${RUNS:-3}
warmup=${WARMUP:-1}
schema=$PWD/schemas/request.schema.json
mkdir -p "$anchors"

# reqlint: $REQLINT, else the dist build of this checkout (built when missing).
bin=${REQLINT:-}
if [ -z "$bin" ]; then
    bin=$PWD/target/dist/reqlint
    [ -x "$bin" ] || cargo build --profile dist --locked --quiet
fi
[ -x "$bin" ] || { echo "anchors.sh: no reqlint binary at $bin" >&2; exit 1; }

corpus=$work/corpus-10000
if [ ! -d "$corpus" ]; then
    python3 "$gen" --n 10000 --out "$corpus" --seed 42 >/dev/null
fi
list=$anchors/files.txt  # every request file of the corpus, sorted, one a line
find "$corpus" -type f \( -name '*.yaml' -o -name '*.json' \) | sort >"$list"
nfiles=$(wc -l <"$list")
bytes=$(xargs -d '\n' -a "$list" stat -c %s | awk '{s += $1} END {print s}')

skip() { echo "skipped: $1" >&2; }

# --- install (once; a version mismatch reinstalls) ---------------------------------------
venv=$anchors/venv
have_py() { [ -x "$venv/bin/$1" ] && [ "$("$venv/bin/python" -m pip show "$1" 2>/dev/null | sed -n 's/^Version: //p')" = "$2" ]; }
py_ok=1
if ! have_py yamllint "$YAMLLINT_VERSION" || ! have_py check-jsonschema "$CHECK_JSONSCHEMA_VERSION"; then
    echo "installing yamllint $YAMLLINT_VERSION and check-jsonschema $CHECK_JSONSCHEMA_VERSION into $venv" >&2
    { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            "yamllint==$YAMLLINT_VERSION" "check-jsonschema==$CHECK_JSONSCHEMA_VERSION" >&2 ||
        py_ok=0
fi

spectral=$anchors/spectral/node_modules/.bin/spectral
spectral_ok=1
if [ ! -x "$spectral" ] || [ "$("$spectral" --version 2>/dev/null)" != "$SPECTRAL_VERSION" ]; then
    echo "installing @stoplight/spectral-cli $SPECTRAL_VERSION into $anchors/spectral" >&2
    if ! command -v npm >/dev/null; then
        spectral_ok=0
    else
        npm install --prefix "$anchors/spectral" --no-audit --no-fund --loglevel=error \
            "@stoplight/spectral-cli@$SPECTRAL_VERSION" >&2 || spectral_ok=0
    fi
fi

# --- the tools' configurations -------------------------------------------------------------
# yamllint: no `extends`, so only the rules named here run; syntax errors are always reported.
cat >"$anchors/yamllint.yaml" <<'EOF'
yaml-files: ['*.yaml', '*.yml', '*.json']
rules:
  key-duplicates: enable
  anchors: enable
EOF

# Spectral: the top-level keys allowed are those of the request schema (a request file and
# a token file with `requests:`), read from it, so the ruleset follows the schema.
python3 - "$schema" "$anchors/spectral-ruleset.yaml" <<'PY'
import json, re, sys
schema = json.load(open(sys.argv[1]))
keys = set(schema["definitions"]["request"]["properties"])
for alt in schema["anyOf"]:
    keys |= set(alt.get("properties", {}))
keys_re = "^(" + "|".join(re.escape(k) for k in sorted(keys)) + "|x-.*)$"
line_re = schema["definitions"]["requestLine"]["pattern"]
methods = schema["definitions"]["request"]["properties"]["method"]["enum"]
versions = schema["definitions"]["request"]["properties"]["api-version"]["enum"]
levels = schema["definitions"]["level"]["enum"]
q = json.dumps  # a JSON string is a YAML string
out = f"""# written by bench/anchors.sh from schemas/request.schema.json
rules:
  unknown-key:
    description: a top-level key the request schema does not allow
    severity: error
    given: "$"
    then:
      field: "@key"
      function: pattern
      functionOptions:
        match: {q(keys_re)}
  request-line:
    description: METHOD PATH, with a known method
    severity: error
    given: ["$.request", "$.requests[*].request"]
    then:
      function: pattern
      functionOptions:
        match: {q(line_re)}
  method-enum:
    severity: error
    given: ["$.method", "$.requests[*].method"]
    then:
      function: enumeration
      functionOptions:
        values: {q(methods)}
  api-version-enum:
    severity: error
    given: "$['api-version']"
    then:
      function: enumeration
      functionOptions:
        values: {q(versions)}
  permission-level-enum:
    severity: error
    given: "$.token.permissions[*][*]"
    then:
      function: enumeration
      functionOptions:
        values: {q(levels)}
"""
open(sys.argv[2], "w").write(out)
PY

# --- the commands: all read the same $nfiles files -------------------------------------------
# The anchors take the file list as arguments (about 600 kB of them: bash's `mapfile` and an
# array, as the list is larger than one argument or xargs's buffer may be).
files='mapfile -t f <'"$list"';'
names=() cmds=()
names+=("reqlint (2 threads)"); cmds+=("$bin check $corpus --format json --no-cache")
names+=("reqlint --threads 1"); cmds+=("$bin check $corpus --format json --no-cache --threads 1")

# A tool goes in only if it runs on two files of the corpus and exits 0 or 1 (findings);
# interleave.py stops on any other exit code.
smoke() {  # smoke NAME COMMAND-on-"${f[@]}"
    local two rc=0
    two=$(head -n 1 "$list"; grep '\.json$' "$list" | head -n 1)
    bash -c 'mapfile -t f <<<"$1"; '"$2" _ "$two" >"$anchors/smoke.out" 2>&1 || rc=$?
    if [ "$rc" -gt 1 ]; then
        skip "$1 exited with $rc on two files: $(head -c 300 "$anchors/smoke.out")"
        return 1
    fi
}
if [ "$py_ok" = 1 ]; then
    yl="$venv/bin/yamllint -c $anchors/yamllint.yaml -f parsable \"\${f[@]}\""
    if smoke yamllint "$yl"; then names+=("yamllint $YAMLLINT_VERSION"); cmds+=("$files $yl"); fi
    cj="$venv/bin/check-jsonschema --schemafile $schema \"\${f[@]}\""
    if smoke check-jsonschema "$cj"; then names+=("check-jsonschema $CHECK_JSONSCHEMA_VERSION"); cmds+=("$files $cj"); fi
else
    skip "yamllint and check-jsonschema: pip install failed"
fi
if [ "$spectral_ok" = 1 ]; then
    sp="$spectral lint --ruleset $anchors/spectral-ruleset.yaml --format text --quiet \"\${f[@]}\""
    if smoke Spectral "$sp"; then names+=("Spectral $SPECTRAL_VERSION"); cmds+=("$files $sp"); fi
else
    skip "Spectral: npm install failed"
fi

echo "machine: $(nproc) cores, $(uname -m), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "$($bin --version); $nfiles files, $bytes bytes ($corpus)"
echo "interleaved: $runs timed runs a command after $warmup warm-up (bench/interleave.py); median wall time"
t=$(python3 bench/interleave.py --runs "$runs" --warmup "$warmup" -- "${cmds[@]}")
mapfile -t medians <<<"$t"
base=${medians[0]}
for i in "${!names[@]}"; do
    python3 -c 'import sys; m, b, t1 = map(float, sys.argv[2:5]); print("%-26s %8.3f s  %7.1fx reqlint  (%.1fx reqlint --threads 1)" % (sys.argv[1], m, m / b, m / t1))' \
        "${names[$i]}" "${medians[$i]}" "$base" "${medians[1]}"
done
