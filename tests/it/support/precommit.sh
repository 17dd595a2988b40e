#!/usr/bin/env bash
# Runs the real pre-commit (from PyPI) in a sample repository with each hook reqlint
# offers: once clean (passes), once with a bad request file (fails and shows the
# diagnostic), once with a .reqlint.yaml whose include and exclude decide the files. The
# sample's config names the hook's repository by `repo:` and `rev:`, as a user's does:
# for the first two, a git repository of this checkout's files (uncommitted changes
# included); for the third, one of the mirror template's.
#
#   source  the hook `reqlint` of this checkout's .pre-commit-hooks.yaml (language: rust):
#           pre-commit builds reqlint with `cargo install`
#   system  the hook `reqlint-system` of the same file (language: system): runs the
#           reqlint on PATH; here the binary built by tests/it/support/wheel.sh (or $REQLINT_BIN)
#   wheel   the hook of the pre-commit mirror (language: python), made from
#           pre-commit-mirror/ into a temporary git repository: pip installs its package,
#           whose dependency `reqlint-cli==VERSION` comes from the wheel built by
#           tests/it/support/wheel.sh in place of PyPI (PIP_NO_INDEX, PIP_FIND_LINKS); `cargo`
#           and `rustc` on PATH are stubs that fail, so the install cannot compile reqlint
#
# Each hook runs with an empty PRE_COMMIT_HOME; the time of its first run (the hook's
# install included) and of its second run are printed.
#
# Usage: tests/it/support/precommit.sh [REPO]  (default: this checkout)
#   REQLINT_HOOKS   the hooks to run (default: "source system wheel")
#   REQLINT_WHEEL   a wheel to install for the wheel hook (default: build one with
#                   tests/it/support/wheel.sh into $REQLINT_WHEEL_DIR, default target/wheels)
#   REQLINT_BIN     the binary for the system hook (default: $CARGO_TARGET_DIR/dist/reqlint,
#                   which tests/it/support/wheel.sh leaves)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "${1:-$here/../../..}" && pwd)
hooks=${REQLINT_HOOKS:-source system wheel}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pre-commit on PATH (.ci/run puts its virtual environment's first), else one from PyPI in
# a throwaway virtual environment, whose python3 and pip then serve the rest of the script
# (a system Python may refuse pip installs: PEP 668).
if ! command -v pre-commit >/dev/null; then
    echo "== pre-commit is not installed: installing it from PyPI into a throwaway venv"
    python3 -m venv "$work/tools"
    "$work/tools/bin/pip" install --quiet --disable-pip-version-check pre-commit
    export PATH="$work/tools/bin:$PATH"
fi
pre-commit --version
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)
passed=0

seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$@"; }

# make_sample DIR: a git repository holding one clean request file.
make_sample() {
    rm -rf "$1"
    git init --quiet "$1"
    git -C "$1" config user.email ci@example.com
    git -C "$1" config user.name ci
    mkdir -p "$1/requests"
    cat > "$1/requests/audience.req.yaml" <<'YAML'
request: POST /v24.0/act_1234567890/customaudiences
params:
  name: Newsletter subscribers
  subtype: CUSTOM
  customer_file_source: USER_PROVIDED_ONLY
  retention_days: 30
YAML
    git -C "$1" add -A
}

# snapshot SRC DEST: a git repository of SRC's files as they are on disk (tracked and
# untracked, not ignored; SRC may be a directory inside a repository), committed. Its
# commit is what the hook's `rev:` names, as a user names a released tag.
snapshot() {
    mkdir -p "$2"
    (cd "$1" && git ls-files -z --cached --others --exclude-standard -- .) |
        while IFS= read -r -d '' f; do
            [ -e "$1/$f" ] && printf '%s\0' "$f"
        done | (cd "$1" && xargs -0 -r cp --parents -t "$2")
    git -C "$2" init --quiet
    git -C "$2" add -A
    git -C "$2" -c user.email=ci@example.com -c user.name=ci commit --quiet -m snapshot
}

# expect FILE PATTERN: the hook's output holds PATTERN.
expect() {
    grep -q -- "$2" "$1" || { echo "error: [$label] the output lacks '$2'" >&2; exit 1; }
}

# check_hook LABEL HOOK_REPO HOOK_ID: the three cases, in a fresh sample repository with
# an empty PRE_COMMIT_HOME and a config whose `repo:` is HOOK_REPO at its HEAD. The caller
# sets the environment the hook needs. It runs in a subshell and stops at the first
# failed check (set -e), which stops the script.
check_hook() (
    label=$1 hook_repo=$2 id=$3 sample=$work/sample-$1 out=$work/out-$1.txt
    config=$work/config-$label.yaml
    export PRE_COMMIT_HOME="$work/cache-$label"
    rm -rf "$PRE_COMMIT_HOME"
    cat > "$config" <<YAML
repos:
  - repo: $hook_repo
    rev: $(git -C "$hook_repo" rev-parse HEAD)
    hooks:
      - id: $id
YAML
    make_sample "$sample"
    cd "$sample"
    echo "== [$label] clean repository: the hook passes (first run: installs the hook)"
    t0=$(date +%s.%N)
    pre-commit run -c "$config" --all-files
    t1=$(date +%s.%N)
    echo "== [$label] the same, a second time (the hook is installed)"
    pre-commit run -c "$config" --all-files
    t2=$(date +%s.%N)
    echo "[$label] timing: first run $(seconds "$t0" "$t1") s (install included), second run $(seconds "$t1" "$t2") s"

    cat > requests/bad.req.yaml <<'YAML'
request: POST /v24.0/act_1234567890/customaudiences
params:
  name: Newsletter subscribers
  subtype: COMBINATION
YAML
    git add -A
    echo "== [$label] a bad request file: the hook fails with the diagnostic"
    if pre-commit run -c "$config" --all-files > "$out" 2>&1; then
        cat "$out"
        echo "error: [$label] the hook passed on a bad file" >&2
        exit 1
    fi
    cat "$out"
    # The human report: the diagnostic at its position, with its help line.
    expect "$out" 'audience-subtype-invalid'
    expect "$out" 'requests/bad.req.yaml:4:12'
    expect "$out" 'help:'

    echo "== [$label] a file that .reqlint.yaml excludes, and one that its include selects"
    cat > .reqlint.yaml <<'YAML'
include: ["api/**/*.yaml"]
exclude: ["requests/bad.req.yaml"]
YAML
    mkdir -p api
    cat > api/bad.yaml <<'YAML'
request: POST /v24.0/act_1234567890/customaudiences
params:
  subtype: COMBINATION
YAML
    git add -A
    if pre-commit run -c "$config" --all-files > "$out" 2>&1; then
        cat "$out"
        echo "error: [$label] the hook passed on a file that include selects" >&2
        exit 1
    fi
    cat "$out"
    expect "$out" 'api/bad.yaml:3:12'
    if grep -q 'requests/bad.req.yaml' "$out"; then
        echo "error: [$label] the hook linted a file that .reqlint.yaml excludes" >&2
        exit 1
    fi
    echo "[$label] passed"
)

# hook_field FILE ID KEY: the value of KEY in the hook ID of a .pre-commit-hooks.yaml.
hook_field() {
    awk -v id="$2" -v key="$3" '
        /^- id:/ { in_hook = ($3 == id) }
        in_hook && $1 == key":" { sub(/^[^:]*: */, ""); print; exit }' "$1"
}

# The hooks must lint the same files the same way, whichever way reqlint was installed.
mirror=$repo/pre-commit-mirror
for key in entry files; do
    src=$(hook_field "$repo/.pre-commit-hooks.yaml" reqlint "$key")
    for other in "$repo/.pre-commit-hooks.yaml:reqlint-system" "$mirror/.pre-commit-hooks.yaml:reqlint"; do
        file=${other%:*} id=${other##*:}
        if [ -z "$src" ] || [ "$(hook_field "$file" "$id" "$key")" != "$src" ]; then
            echo "error: $key of hook $id in $file differs from the source hook's: $src" >&2
            exit 1
        fi
    done
done
# The mirror pins the wheel of the version it is released with.
if ! grep -qx "version = \"$version\"" "$mirror/pyproject.toml" ||
    ! grep -q "\"reqlint-cli==$version\"" "$mirror/pyproject.toml"; then
    echo "error: $mirror/pyproject.toml does not pin reqlint-cli==$version (Cargo.toml's version)" >&2
    exit 1
fi
echo "the three hooks agree on entry and files; the mirror pins reqlint-cli==$version"

# The hook repository: this checkout's files as they are now, uncommitted changes included.
snapshot "$repo" "$work/hooks"

for hook in $hooks; do
    case "$hook" in
    source)
        # `cargo install` of the hook builds in a directory of its own, as for a user.
        (unset CARGO_TARGET_DIR; check_hook source "$work/hooks" reqlint)
        passed=$((passed + 1))
        ;;
    system)
        bin=${REQLINT_BIN:-${CARGO_TARGET_DIR:-$repo/target}/dist/reqlint}
        if [ ! -x "$bin" ]; then
            REQLINT_WHEEL_SKIP_SOURCE=1 bash "$here/wheel.sh"
        fi
        mkdir -p "$work/system-bin"
        ln -sf "$bin" "$work/system-bin/reqlint"
        (PATH="$work/system-bin:$PATH" check_hook system "$work/hooks" reqlint-system)
        passed=$((passed + 1))
        ;;
    wheel)
        wheel=${REQLINT_WHEEL:-}
        if [ -z "$wheel" ]; then
            wheels_dir=${REQLINT_WHEEL_DIR:-$repo/target/wheels}
            REQLINT_WHEEL_SKIP_SOURCE=1 REQLINT_WHEEL_DIR="$wheels_dir" bash "$here/wheel.sh"
            wheel=$(ls "$wheels_dir"/reqlint_cli-"$version"-py3-none-*.whl)
        fi
        # The package index stand-in: the wheel, and setuptools for building the mirror's
        # (empty) package. No source distribution of reqlint is there.
        links=$work/links
        mkdir -p "$links"
        cp "$wheel" "$links/"
        python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
            --dest "$links" 'setuptools>=61'
        ls "$links"
        # The mirror, as the release makes it: a git repository of the template's files.
        snapshot "$mirror" "$work/mirror"
        # Anything that tries to compile reqlint during the install fails, and leaves a mark.
        # (`rustc --version` alone is pip's probe for its user agent: it just fails.)
        mkdir -p "$work/no-compiler"
        for tool in cargo rustc rustup maturin; do
            printf '#!/bin/sh\n[ "$*" = --version ] && exit 97\necho "%s $*" >> "%s/compiled"\necho "error: %s called during the wheel hook install" >&2\nexit 97\n' \
                "$tool" "$work" "$tool" > "$work/no-compiler/$tool"
            chmod +x "$work/no-compiler/$tool"
        done
        (
            export PIP_NO_INDEX=1 PIP_FIND_LINKS="$links" PATH="$work/no-compiler:$PATH"
            check_hook wheel "$work/mirror" reqlint
        )
        if [ -e "$work/compiled" ]; then
            echo "error: [wheel] the hook install ran a compiler: $(cat "$work/compiled")" >&2
            exit 1
        fi
        passed=$((passed + 1))
        ;;
    *)
        echo "error: unknown hook '$hook' in REQLINT_HOOKS (source, system, wheel)" >&2
        exit 2
        ;;
    esac
done
echo "pre-commit: $passed passed, 0 failed"
