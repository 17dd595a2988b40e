#!/usr/bin/env bash
# The full fuzz corpora live outside the repository: fuzz/corpus/ is ignored by git, and
# this script builds, restores or packs it. The repository keeps only the inputs that
# tests/it/fuzz_replay.rs replays (fuzz/regressions/<target>/: crashes fixed, and a few
# dozen per target chosen by fuzz/select_regressions.py).
#
#   bash fuzz/corpus.sh seed               fuzz/corpus/ from fixtures/ and the kept inputs
#   bash fuzz/corpus.sh restore [ARCHIVE]  fuzz/corpus/ from an archive that `pack` wrote,
#                                          or, without one, from the git history (the
#                                          corpora of 2026-11-25, before they moved out)
#   bash fuzz/corpus.sh pack ARCHIVE       fuzz/corpus/ into ARCHIVE (.tar.gz), to keep
#                                          or share outside the repository
set -euo pipefail

cd "$(dirname "$0")/.."
corpus=fuzz/corpus
targets=(yaml_loader json_loader encoded_string request_model whole_check
    postman_reader http_reader bruno_reader hurl_reader)

# The commit that removed the corpora from the tree; its parent still has them.
removed_in() {
    git log -1 --format=%H --diff-filter=D -- "$corpus/yaml_loader" 2>/dev/null
}

# copy_seed TARGET FILE: FILE into TARGET's corpus, named by its content. whole_check's
# inputs start with a byte that picks the format (even: YAML, odd: JSON).
copy_seed() {
    local target=$1 file=$2 dest
    mkdir -p "$corpus/$target"
    if [ "$target" = whole_check ]; then
        local kind='\x00'
        case $file in *.json) kind='\x01' ;; esac
        dest=$(mktemp "$corpus/$target/.seed.XXXXXX")
        { printf "$kind"; cat "$file"; } >"$dest"
    else
        dest=$(mktemp "$corpus/$target/.seed.XXXXXX")
        cat "$file" >"$dest"
    fi
    mv "$dest" "$corpus/$target/$(sha1sum "$dest" | cut -c1-40)"
}

case "${1:-}" in
seed)
    for target in "${targets[@]}"; do
        if [ -d "fuzz/regressions/$target" ]; then
            for f in fuzz/regressions/"$target"/*; do copy_seed "$target" "$f"; done
        fi
    done
    while IFS= read -r -d '' f; do
        case $f in
        *.postman_collection.json) copy_seed postman_reader "$f" ;;
        *.http | *.rest) copy_seed http_reader "$f" ;;
        *.bru) copy_seed bruno_reader "$f" ;;
        *.hurl) copy_seed hurl_reader "$f" ;;
        *.json)
            copy_seed json_loader "$f"
            copy_seed whole_check "$f"
            ;;
        *.yaml | *.yml)
            copy_seed yaml_loader "$f"
            copy_seed request_model "$f"
            copy_seed whole_check "$f"
            ;;
        esac
    done < <(find fixtures -type f -print0)
    echo "seeded $corpus/ from fixtures/ and fuzz/regressions/: $(find "$corpus" -type f | wc -l) files"
    ;;
restore)
    mkdir -p "$corpus"
    if [ -n "${2:-}" ]; then
        tar -xzf "$2" -C fuzz
    else
        rev=$(removed_in)
        if [ -z "$rev" ]; then
            echo "error: no commit in this clone's history removed $corpus (a shallow clone?);" >&2
            echo "       name an archive, or run: bash fuzz/corpus.sh seed" >&2
            exit 1
        fi
        git archive "$rev^" -- "$corpus" | tar -x
    fi
    echo "restored $corpus/: $(find "$corpus" -type f | wc -l) files"
    ;;
pack)
    if [ -z "${2:-}" ]; then
        echo "usage: bash fuzz/corpus.sh pack ARCHIVE.tar.gz" >&2
        exit 2
    fi
    tar -czf "$2" -C fuzz corpus
    echo "packed $corpus/ into $2"
    ;;
*)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
