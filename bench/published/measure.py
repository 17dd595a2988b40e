#!/usr/bin/env python3
"""Measure reqlint on the published request files listed in SOURCES.tsv.

Usage: measure.py CORPUS_DIR REQLINT_BINARY [--out-dir DIR] [--findings findings.tsv]

The corpus is NOT in the repository (its files are other people's, under their own
licences); README.md says how to rebuild it. When CORPUS_DIR is absent the script says
so and exits 0, so that it can sit in a CI job that does not have the corpus.

For every file reqlint would lint under CORPUS_DIR (as `reqlint check --show-files`
lists them), it runs `reqlint check --no-cache --format json --exit-zero FILE` from
inside CORPUS_DIR, and counts the requests reqlint saw, the requests it judged, the
requests it did not judge (hosts it does not check), and the findings by rule. It writes
`per-file.tsv` and `summary.md` in the output directory (default: the current one).
With --findings (the hand classification), it also counts the requests with at least
one false finding.
"""

import argparse
import collections
import csv
import json
import os
import subprocess
import sys


def run(binary, corpus, args):
    return subprocess.run(
        [binary, *args],
        cwd=corpus,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def config_above(directory):
    """A .reqlint.yaml in the corpus or any parent would change the results."""
    here = os.path.abspath(directory)
    while True:
        candidate = os.path.join(here, ".reqlint.yaml")
        if os.path.exists(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("reqlint")
    parser.add_argument("--out-dir", default=".")
    parser.add_argument("--findings", help="hand classification (findings.tsv)")
    options = parser.parse_args()

    if not os.path.isdir(options.corpus):
        print(f"measure.py: corpus {options.corpus} is absent; nothing measured (see README.md)")
        return 0
    corpus = os.path.abspath(options.corpus)
    binary = os.path.abspath(options.reqlint)
    config = config_above(corpus)
    if config:
        print(f"measure.py: {config} applies to the corpus; move it away first", file=sys.stderr)
        return 2

    listed = run(binary, corpus, ["check", "--no-cache", "--show-files", "."])
    # `--show-files` lists each file at the start of a line, and under it, indented,
    # the requests that no API checks.
    files = [line for line in listed.stdout.splitlines() if line.strip() and not line[0].isspace()]

    rows = []
    by_rule = collections.Counter()
    totals = collections.Counter()
    found = []
    for path in files:
        result = run(binary, corpus, ["check", "--no-cache", "--format", "json", "--exit-zero", path])
        try:
            report = json.loads(result.stdout)
        except json.JSONDecodeError:
            rows.append({"file": path, "requests": 0, "judged": 0, "unjudged": 0,
                         "findings": 0, "rules": f"(no report; exit {result.returncode})"})
            totals["unreadable"] += 1
            continue
        summary = report["summary"]
        requests = summary.get("requests", 0)
        unjudged = summary.get("unjudged", 0)
        rules = collections.Counter(d["rule"] for d in report["diagnostics"])
        found += [(path, d["rule"], d["message"]) for d in report["diagnostics"]]
        by_rule.update(rules)
        totals["files"] += 1
        totals["requests"] += requests
        totals["unjudged"] += unjudged
        totals["findings"] += len(report["diagnostics"])
        rows.append({
            "file": path,
            "requests": requests,
            "judged": requests - unjudged,
            "unjudged": unjudged,
            "findings": len(report["diagnostics"]),
            "rules": ", ".join(f"{rule}={count}" for rule, count in sorted(rules.items())),
        })

    os.makedirs(options.out_dir, exist_ok=True)
    with open(os.path.join(options.out_dir, "per-file.tsv"), "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=["file", "requests", "judged", "unjudged", "findings", "rules"],
                                delimiter="\t")
        writer.writeheader()
        writer.writerows(rows)

    lines = [
        "| measure | value |",
        "|---|---|",
        f"| files read | {totals['files']} |",
        f"| files with no report | {totals['unreadable']} |",
        f"| requests seen | {totals['requests']} |",
        f"| requests judged | {totals['requests'] - totals['unjudged']} |",
        f"| requests not judged (hosts reqlint does not check) | {totals['unjudged']} |",
        f"| findings | {totals['findings']} |",
    ]
    unclassified = []
    if options.findings:
        # Each finding of this run takes the verdict of a classified finding with the same
        # file, rule and message (each classified row at most once); the others are listed
        # to be classified by hand.
        classified = collections.defaultdict(list)
        with open(options.findings, newline="") as rows_in:
            for row in csv.DictReader(rows_in, delimiter="\t"):
                classified[(row["source"], row["rule"], row["message"])].append(row)
        false_requests = set()
        verdicts = collections.Counter()
        for key in found:
            rows_for = classified.get(key)
            if not rows_for:
                unclassified.append(key)
                continue
            row = rows_for.pop(0)
            verdicts[row["verdict"]] += 1
            if row["verdict"] == "false" and row["kind"] == "request":
                false_requests.add((row["source"], row["request"]))
        share = 100.0 * len(false_requests) / totals["requests"] if totals["requests"] else 0.0
        lines += [
            f"| findings of this run classified true / false | {verdicts['true']} / {verdicts['false']} |",
            f"| findings of this run not classified yet | {len(unclassified)} |",
            f"| requests with at least one false finding (of those classified) | {len(false_requests)} ({share:.1f} %) |",
            "",
            "(findings on documentation items and on files in a dialect reqlint does not read are"
            " classified but not counted as requests)",
        ]
        if unclassified:
            with open(os.path.join(options.out_dir, "unclassified.tsv"), "w", newline="") as out:
                writer = csv.writer(out, delimiter="\t")
                writer.writerow(["source", "rule", "message"])
                writer.writerows(unclassified)
    lines += ["", "| rule | findings |", "|---|---|"]
    lines += [f"| {rule} | {count} |" for rule, count in by_rule.most_common()]
    with open(os.path.join(options.out_dir, "summary.md"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
