#!/usr/bin/env bash
# Times reqlint against `cat` and a parse-only run on generated corpora, and prints every
# performance target of BENCHMARKS.md as met or NOT MET, with the figures.
#
#   bench/compare.sh            # 10,000 and 100,000 files; about five minutes
#   QUICK=1 bench/compare.sh    # fewer runs (a smoke check)
#   RUNS=11 SKIP_LOADERS=1 bench/compare.sh   # fewer rounds, no loader benchmark
#   SKIP_STATIC=1 bench/compare.sh   # without the static musl binary's start-up figures
#
# Needs python3 (the corpus generator in ../shared/bench or $GEN_CORPUS), GNU time
# (/usr/bin/time) and, when present, hyperfine (apt-get install hyperfine).
#
# Figures that are compared with each other (cat / reqlint / parse-only, 10k / 100k,
# 1 / 2 threads) are timed interleaved by bench/interleave.py, so the host's load drift
# hits both sides of a ratio alike; hyperfine times the single-file runs (about 3 ms).
set -euo pipefail
cd "$(dirname "$0")/.."

gen=${GEN_CORPUS:-../shared/bench/gen_corpus.py}
work=${BENCH_DIR:-/tmp/reqlint-bench}
# 21 rounds: the median of fewer moved by a tenth from one run of the script to the next
# on this shared host (the two-thread ratio most).
runs=${RUNS:-21}
[ -n "${QUICK:-}" ] && runs=3
mkdir -p "$work"

cargo build --profile dist --locked --quiet
bin=$PWD/target/dist/reqlint
# The corpora are linted with reqlint's defaults: an empty config, not the repository's
# (whose context snapshots for the fixtures cost about 1 M instructions a run to read).
printf '{}\n' >"$work/defaults.reqlint.yaml"
export REQLINT_BENCH_CONFIG="$work/defaults.reqlint.yaml"
bin_check() { echo "$bin check --config $REQLINT_BENCH_CONFIG"; }

corpus() {  # corpus N -> directory
    local dir="$work/corpus-$1"
    if [ ! -d "$dir" ]; then
        python3 "$gen" --n "$1" --out "$dir" --seed 42 >/dev/null
    fi
    echo "$dir"
}

# median wall seconds of one command, over $runs runs after one warm-up (single files)
median() {
    if command -v hyperfine >/dev/null; then
        # Without a pipe, time the command itself rather than a shell around it.
        local cmd=$1 shell=()
        case "$cmd" in
            *'|'*) ;;
            *) cmd=${cmd% > /dev/null}; shell=(-N) ;;
        esac
        hyperfine "${shell[@]}" --style none --warmup 1 --runs "$runs" -i --export-json "$work/h.json" -- "$cmd" >/dev/null 2>&1
        python3 -c "import json;print('%.4f' % json.load(open('$work/h.json'))['results'][0]['median'])"
    else
        local times=()
        bash -c "$1" >/dev/null 2>&1 || true
        for _ in $(seq "$runs"); do
            local s e
            s=$(date +%s.%N); bash -c "$1" >/dev/null 2>&1 || true; e=$(date +%s.%N)
            times+=("$(echo "$e - $s" | bc -l)")
        done
        printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%.4f\n", a[int((NR+1)/2)]}'
    fi
}

# median wall seconds of each command, one per line, timed round-robin over N runs after
# one warm-up each: interleaved N CMD CMD... (output goes to /dev/null anyway)
interleaved() {
    python3 bench/interleave.py --runs "$1" --warmup 1 -- "${@:2}"
}

maxrss_mb() {  # peak memory of one run, MB
    { /usr/bin/time -f %M bash -c "$1 >/dev/null 2>&1" 2>&1 >/dev/null || true; } | tail -n 1 | awk '{printf "%.1f\n", $1/1024}'
}

verdict() {  # verdict LABEL OK(0/1) DETAIL
    if [ "$2" = 1 ]; then status="met"; else status="NOT MET"; fail=1; fi
    printf '%-58s %-8s %s\n' "$1" "$status" "$3"
}
le() { python3 -c "import sys; print(1 if float(sys.argv[1]) <= float(sys.argv[2]) else 0)" "$1" "$2"; }
ge() { python3 -c "import sys; print(1 if float(sys.argv[1]) >= float(sys.argv[2]) else 0)" "$1" "$2"; }
ratio() { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

fail=0
c10=$(corpus 10000)
c100=$(corpus 100000)
bytes10=$(find "$c10" -type f -printf '%s\n' | awk '{s += $1} END {print s}')

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
echo "reqlint $($bin --version | cut -d' ' -f2); $runs runs each; median wall time"
echo "paired figures (cat/parse-only/reqlint, 10k/100k, 1/2 threads) timed interleaved, round-robin"
echo

# Without the result cache (`--no-cache`): the first run in CI, a hook on a fresh clone.
t=$(interleaved "$runs" "find $c10 -type f -print0 | xargs -0 cat" \
    "$(bin_check) $c10 --format json --no-cache" "$(bin_check) $c10 --parse-only --no-cache")
{ read -r cat10; read -r lint10; read -r parse10; } <<<"$t"
echo "10,000 files ($bytes10 bytes): cat $cat10 s, parse-only $parse10 s, reqlint $lint10 s"
r=$(ratio "$lint10" "$cat10")
verdict "10k files, no cache: reqlint <= cat" "$(le "$r" 1)" "${r}x (reqlint/parse-only $(ratio "$lint10" "$parse10")x)"

# The 10k run is timed again here, interleaved with the 100k one. A 100k run takes about
# 1.3 s, so this pair costs about 1.5 s a round: 21 rounds (the default) about 30 s, well
# within the script's budget, so it keeps the same number of runs as the 10k figures.
t=$(interleaved "$runs" "$(bin_check) $c10 --format json --no-cache" "$(bin_check) $c100 --format json --no-cache")
{ read -r lint10b; read -r lint100; } <<<"$t"
r=$(ratio "$lint100" "$lint10b")
verdict "100k files take <= 11x as long as 10k" "$(le "$r" 11)" "${r}x ($lint100 s vs $lint10b s)"

t=$(interleaved "$runs" "$(bin_check) $c10 --format json --no-cache --threads 1" \
    "$(bin_check) $c10 --format json --no-cache --threads 2")
{ read -r one; read -r two; } <<<"$t"
r=$(ratio "$one" "$two")
verdict "two threads >= 1.7x faster than one" "$(ge "$r" 1.7)" "${r}x (1 thread $one s, 2 threads $two s)"

m10=$(maxrss_mb "$(bin_check) $c10 --format json --no-cache")
verdict "peak memory, 10k files <= 40 MB" "$(le "$m10" 40)" "$m10 MB"
m100=$(maxrss_mb "$(bin_check) $c100 --format json --no-cache")
verdict "peak memory, 100k files <= 40 MB" "$(le "$m100" 40)" "$m100 MB"

# With the cache: a first run into an empty cache directory, then a second run over the
# same unchanged files; each round starts from an empty directory.
cache="$work/cache"
t=$(interleaved "$runs" "rm -rf $cache; $(bin_check) $c10 --format json --cache-dir $cache; $(bin_check) $c10 --format json --cache-dir $cache" \
    "rm -rf $cache; $(bin_check) $c10 --format json --cache-dir $cache")
{ read -r both; read -r first; } <<<"$t"
second=$(python3 -c "print('%.4f' % max(float('$both') - float('$first'), 0))")
r=$(ratio "$second" "$first")
verdict "cache: a second run over 10k unchanged files <= 1/3 of the first" "$(le "$r" 0.334)" "${r}x (first $first s, second $second s)"

typical=$(find "$c10" -name 'adset-*.req.yaml' | sort | sed -n 1p || true)
# Start-up: against `true` (/bin/true, the cost of starting any process), timed interleaved
# with many runs, as these figures are a few milliseconds.
# Two builds: the host's (glibc, dynamically linked: what `cargo install` makes) and, where
# the musl target and musl-gcc are installed, the static binary that release.yml publishes
# for Linux, which starts without the dynamic loader. Both are timed in the same rounds.
static_bin=
if [ -z "${SKIP_STATIC:-}" ] && command -v musl-gcc >/dev/null \
    && rustup target list --installed 2>/dev/null | grep -qx x86_64-unknown-linux-musl; then
    TARGET_CC=musl-gcc cargo build --profile dist --locked --quiet --target x86_64-unknown-linux-musl
    static_bin=$PWD/target/x86_64-unknown-linux-musl/dist/reqlint
fi
startup=("/bin/true" "$bin --version" "$(bin_check) $typical --format json --no-cache")
if [ -n "$static_bin" ]; then
    startup+=("$static_bin --version" "$static_bin check --config $REQLINT_BENCH_CONFIG $typical --format json --no-cache")
fi
t=$(interleaved $((runs * 5)) "${startup[@]}")
mapfile -t figures <<<"$t"
truesec=${figures[0]} version=${figures[1]} single=${figures[2]}
static_version=${figures[3]:-} static_single=${figures[4]:-}
over() { python3 -c "print('%.2f' % (($1 - $truesec) * 1000))"; }
ms=$(over "$single")
verdict "a typical file <= /bin/true + 1.5 ms (glibc build)" "$(le "$ms" 1.5)" "+$ms ms ($(python3 -c "print('%.2f' % ($single * 1000))") ms)"
ms=$(over "$version")
verdict "--version <= /bin/true + 0.5 ms (glibc build)" "$(le "$ms" 0.5)" "+$ms ms"
if [ -n "$static_bin" ]; then
    ms=$(over "$static_single")
    verdict "a typical file <= /bin/true + 1.5 ms (static musl, published)" "$(le "$ms" 1.5)" "+$ms ms"
    ms=$(over "$static_version")
    verdict "--version <= /bin/true + 0.5 ms (static musl, published)" "$(le "$ms" 0.5)" "+$ms ms"
else
    echo "(the static musl binary is not measured: no musl target or musl-gcc, or SKIP_STATIC)"
fi

lsp=$(python3 bench/lsp_latency.py "$bin" --lines 2000 --runs "$runs" | sed -n 's/^median_ms=//p')
verdict "language server: a 2,000-line file's diagnostics <= 20 ms after a change" "$(le "$lsp" 20)" "$lsp ms"

big="$work/200-requests.req.yaml"
python3 - "$big" <<'PY'
import sys
lines = ["token:", "  permissions:", "    user: {Email addresses: read, Followers: write}", "requests:"]
for i in range(200):
    lines.append("  - GET /user/emails" if i % 2 else f"  - PUT /user/following/user{i}")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
twohundred=$(median "$(bin_check) $big --format json > /dev/null")
ms=$(python3 -c "print('%.2f' % ($twohundred * 1000))")
verdict "a file with 200 requests <= 5 ms" "$(le "$ms" 5)" "$ms ms"

# Loader throughput per core, from the divan benchmark (1 MB of request documents);
# SKIP_LOADERS=1 leaves it out (it builds the benchmark profile first).
if [ -n "${SKIP_LOADERS:-}" ]; then
    echo
    if [ "$fail" = 0 ]; then echo "every target met (loaders not measured)"; else echo "some targets NOT MET"; fi
    exit "$fail"
fi
bench=$(cargo bench --locked --quiet --bench lint -- loader_1mb --sample-count 500 2>/dev/null)
median_mbs() {  # the median MB/s of a divan row: fastest, slowest, median, mean
    echo "$bench" | python3 -c "
import re, sys
lines = sys.stdin.read().splitlines()
for i, l in enumerate(lines):
    if re.search(r'─ $1\\b', l) and i + 1 < len(lines):
        figures = re.findall(r'([0-9.]+) MB/s', lines[i + 1])
        print(figures[2] if len(figures) > 2 else 0)
        break
else:
    print(0)
"
}
yaml=$(median_mbs yaml)
json=$(median_mbs json)
verdict "YAML loader >= 35 MB/s per core (median)" "$(ge "${yaml:-0}" 35)" "${yaml:-?} MB/s"
verdict "JSON loader >= 200 MB/s per core (median)" "$(ge "${json:-0}" 200)" "${json:-?} MB/s"

echo
if [ "$fail" = 0 ]; then echo "every target met"; else echo "some targets NOT MET"; fi
