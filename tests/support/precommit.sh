#!/usr/bin/env bash
# Runs the real pre-commit (from PyPI) against a sample repository with this checkout's
# .pre-commit-hooks.yaml: once clean (passes), once with a bad request file (fails and
# shows the diagnostic). Usage: tests/support/precommit.sh [REPO]  (default: this checkout)
set -euo pipefail
repo=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
command -v pre-commit >/dev/null || python3 -m pip install --quiet pre-commit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
cd "$work"
git init --quiet sample
cd sample
git config user.email ci@example.com
git config user.name ci
mkdir -p requests
cat > requests/audience.req.yaml <<'YAML'
request: POST /v24.0/act_1234567890/customaudiences
params:
  name: Newsletter subscribers
  subtype: CUSTOM
  customer_file_source: USER_PROVIDED_ONLY
  retention_days: 30
YAML
git add -A
echo "== clean repository: the hook passes"
pre-commit try-repo "$repo" reqlint --all-files
cat > requests/bad.req.yaml <<'YAML'
request: POST /v24.0/act_1234567890/customaudiences
params:
  name: Newsletter subscribers
  subtype: COMBINATION
YAML
git add -A
echo "== a bad request file: the hook fails with the diagnostic"
if pre-commit try-repo "$repo" reqlint --all-files > "$work/out.txt" 2>&1; then
    cat "$work/out.txt"
    echo "error: the hook passed on a bad file" >&2
    exit 1
fi
cat "$work/out.txt"
# The human report: the diagnostic at its position, with its help line.
grep -q 'audience-subtype-invalid' "$work/out.txt"
grep -q 'requests/bad.req.yaml:4:12' "$work/out.txt"
grep -q 'help:' "$work/out.txt"

echo "== a file that .reqlint.yaml excludes, and one that its include selects"
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
if pre-commit try-repo "$repo" reqlint --all-files > "$work/out.txt" 2>&1; then
    cat "$work/out.txt"
    echo "error: the hook passed on a file that include selects" >&2
    exit 1
fi
cat "$work/out.txt"
grep -q 'api/bad.yaml:3:12' "$work/out.txt"
if grep -q 'requests/bad.req.yaml' "$work/out.txt"; then
    echo "error: the hook linted a file that .reqlint.yaml excludes" >&2
    exit 1
fi
echo "pre-commit: 3 passed, 0 failed"
