#!/usr/bin/env bash
# Checks that each ELF executable named is statically linked: it has no program
# interpreter (no INTERP program header, so the kernel loads it without ld.so) and needs
# no shared library (no NEEDED entry in its dynamic section). Rust builds the musl targets
# as static PIEs, which do have a dynamic section (for their own relocations) and which
# `file` calls "static-pie linked", not "statically linked": this accepts both kinds and
# nothing that would need a dynamic loader or a libc on the machine.
#
# Usage: tests/it/support/static_elf.sh FILE...   (needs readelf, from binutils)
# Exit 0: all static; 1: one is not (or is no ELF file); 2: usage, or no readelf.
set -euo pipefail
[ "$#" -gt 0 ] || { echo "usage: $0 FILE..." >&2; exit 2; }
command -v readelf >/dev/null || { echo "error: readelf (binutils) is required" >&2; exit 2; }

failed=0
for exe in "$@"; do
    if command -v file >/dev/null; then file "$exe"; fi
    # Each output is read whole before grep looks at it: `readelf | grep -q` could fail
    # under pipefail when grep stops reading early.
    if ! header=$(LC_ALL=C readelf --file-header --wide "$exe" 2>&1) ||
        ! grep -q 'Class: *ELF' <<<"$header"; then
        echo "error: $exe is not an ELF file: $header" >&2
        failed=1
        continue
    fi
    programs=$(LC_ALL=C readelf --program-headers --wide "$exe")
    dynamic=$(LC_ALL=C readelf --dynamic --wide "$exe")
    if grep -Eq '^[[:space:]]*INTERP[[:space:]]' <<<"$programs"; then
        echo "error: $exe has a program interpreter (it is dynamically linked):" >&2
        grep -E 'INTERP|interpreter' <<<"$programs" >&2 || true
        failed=1
    elif grep -q '(NEEDED)' <<<"$dynamic"; then
        echo "error: $exe needs shared libraries:" >&2
        grep '(NEEDED)' <<<"$dynamic" >&2 || true
        failed=1
    else
        echo "ok: $exe is statically linked (no program interpreter, no shared library)"
    fi
done
exit "$failed"
