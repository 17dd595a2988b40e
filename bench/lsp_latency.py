#!/usr/bin/env python3
"""How long the language server takes, after a change, to publish a file's diagnostics.

    python3 bench/lsp_latency.py BIN [--lines 2000] [--runs 21]

Starts `BIN server`, opens a generated request file of about --lines lines (ad set creates,
code-hosting requests with a token, one finding in ten requests), then sends --runs full
changes one after the other (each edits one value) and times each from the moment the
change is written to the server's standard input to the moment the diagnostics of that
version arrive. Prints the median, the fastest and the slowest in milliseconds, and the
median as the last line (`median_ms=N`) for scripts. Stock python3 only.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise SystemExit("the server closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def request_file(lines, variant):
    out = ["token:", "  permissions:", "    repository: {Issues: write, Contents: read}", "requests:"]
    i = 0
    while len(out) < lines:
        if i % 2 == 0:
            name = "Spring sale %d" % variant if i % 10 == 0 else "Set %d" % i
            out += [
                "  - request: POST /v25.0/act_123/adsets",
                "    params:",
                "      name: %s" % name,
                "      campaign_id: '1200%d'" % i,
                "      daily_budget: %d" % (1000 + i),
                "      billing_event: IMPRESSIONS",
                "      optimization_goal: %s" % ("REACH" if i % 10 else "NOT_A_GOAL"),
                "      targeting: {geo_locations: {countries: [US]}}",
            ]
        else:
            out.append("  - GET /repos/acme/web/issues/%d" % i)
        i += 1
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin) if os.sep in args.bin else args.bin

    work = tempfile.mkdtemp(prefix="reqlint-lsp-")
    path = os.path.join(work, "big.req.yaml")
    text = request_file(args.lines, 0)
    with open(path, "w") as f:
        f.write(text)
    uri = "file://" + path
    server = subprocess.Popen(
        [args.bin, "server"], cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )

    def send(message):
        server.stdin.write(frame(message))
        server.stdin.flush()

    def diagnostics_of(version):
        while True:
            m = read_message(server.stdout)
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m["params"]
                if p["uri"] == uri and p.get("version", version) == version:
                    return p["diagnostics"]

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": "file://" + work, "capabilities": {}}})
    while read_message(server.stdout).get("id") != 1:
        pass
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 0, "text": text}}})
    found = diagnostics_of(0)
    times = []
    for version in range(1, args.runs + 1):
        changed = request_file(args.lines, version)
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": changed}]}})
        diagnostics_of(version)
        times.append((time.perf_counter() - start) * 1000)
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send({"jsonrpc": "2.0", "method": "exit"})
    server.wait(timeout=10)
    median = statistics.median(times)
    print("%d lines, %d diagnostics; after a change: median %.1f ms, fastest %.1f, slowest %.1f"
          % (text.count("\n"), len(found), median, min(times), max(times)))
    print("median_ms=%.2f" % median)


if __name__ == "__main__":
    sys.exit(main())
