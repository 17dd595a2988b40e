#!/usr/bin/env python3
"""Chooses the few fuzz inputs kept in the repository from a full corpus.

The full corpora (tens of thousands of files) live outside the repository
(fuzz/corpus.sh); the repository keeps, per target, the inputs that make reqlint
behave in distinct ways: for each distinct set of (rule, severity) pairs that
`reqlint check` reports on an input, the smallest input that gives it; of those,
first enough to show every (rule, severity) once, then the richest, then inputs
spread over the sizes, up to --per-target inputs. They go to
fuzz/regressions/<target>/kept-<sha1 prefix>, beside the named inputs of crashes
fixed (which this never touches). tests/it/fuzz_replay.rs replays them in every
`cargo test`.

Usage: python3 fuzz/select_regressions.py --corpus fuzz/corpus --reqlint target/debug/reqlint
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

# How each target's inputs are read as files, so that `reqlint check` reads them as the
# fuzz target does. whole_check's first byte picks the format (even: YAML, odd: JSON).
NAMES = {
    "yaml_loader": lambda data: ("f.req.yaml", data),
    "json_loader": lambda data: ("f.req.json", data),
    "request_model": lambda data: ("f.req.yaml", data),
    "encoded_string": lambda data: ("f.req.yaml", data),
    "whole_check": lambda data: (
        ("f.req.json" if data and data[0] & 1 else "f.req.yaml"),
        data[1:],
    ),
    "postman_reader": lambda data: ("f.postman_collection.json", data),
    "http_reader": lambda data: ("f.http", data),
    "bruno_reader": lambda data: ("f.bru", data),
    "hurl_reader": lambda data: ("f.hurl", data),
}


def behaviours(reqlint, target, inputs):
    """Each input's behaviour: the set of (rule, severity) reqlint reports on it."""
    with tempfile.TemporaryDirectory() as tmp:
        names = {}
        for i, (path, data) in enumerate(inputs):
            name, body = NAMES[target](data)
            folder = os.path.join(tmp, str(i))
            os.mkdir(folder)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(body)
            names[os.path.join(str(i), name)] = path
        open(os.path.join(tmp, ".reqlint.yaml"), "w").close()
        run = subprocess.run(
            [reqlint, "check", ".", "--format", "json", "--no-cache", "--exit-zero"],
            cwd=tmp,
            capture_output=True,
            check=False,
        )
        if run.returncode not in (0, 1):
            sys.exit(f"{target}: reqlint exited {run.returncode}: {run.stderr[:400]!r}")
        report = json.loads(run.stdout)
        found = {path: set() for path in names.values()}
        for d in report["diagnostics"]:
            path = names.get(d["file"])
            if path is not None:
                found[path].add((d["rule"], d["severity"]))
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="fuzz/corpus")
    parser.add_argument("--out", default="fuzz/regressions")
    parser.add_argument("--reqlint", default=os.path.abspath("target/debug/reqlint"))
    parser.add_argument("--per-target", type=int, default=30)
    args = parser.parse_args()
    total = 0
    for target in sorted(NAMES):
        folder = os.path.join(args.corpus, target)
        if not os.path.isdir(folder):
            continue
        inputs = []
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                inputs.append((name, f.read()))
        found = behaviours(args.reqlint, target, inputs)
        smallest = {}
        for path, data in sorted(inputs, key=lambda p: (len(p[1]), p[0])):
            smallest.setdefault(frozenset(found[path]), (path, data))
        # Every (rule, severity) seen at least once, then the richest behaviours.
        chosen, covered = [], set()
        richest = sorted(smallest.items(), key=lambda kv: (-len(kv[0]), sorted(kv[0])))
        for behaviour, item in sorted(smallest.items(), key=lambda kv: sorted(kv[0])):
            if not behaviour <= covered:
                chosen.append((behaviour, item))
                covered |= behaviour
        for behaviour, item in richest:
            if (behaviour, item) not in chosen:
                chosen.append((behaviour, item))
        # A loader's paths show little in diagnostics: fill up with inputs spread evenly
        # over the corpus ordered by size.
        by_size = sorted(inputs, key=lambda p: (len(p[1]), p[0]))
        room = args.per_target - len(chosen)
        taken = {item[0] for _, item in chosen}
        for k in range(max(room, 0)):
            item = by_size[k * len(by_size) // room]
            if item[0] not in taken:
                chosen.append((None, item))
                taken.add(item[0])
        out = os.path.join(args.out, target)
        os.makedirs(out, exist_ok=True)
        for name in os.listdir(out):
            if name.startswith("kept-"):
                os.remove(os.path.join(out, name))
        for _, (path, data) in chosen[: args.per_target]:
            digest = hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(out, f"kept-{digest}"), "wb") as f:
                f.write(data)
        kept = min(len(chosen), args.per_target)
        total += kept
        print(f"{target}: {len(inputs)} inputs, {len(chosen)} behaviours, {kept} kept")
    print(f"{total} inputs kept in {args.out}")


if __name__ == "__main__":
    main()
