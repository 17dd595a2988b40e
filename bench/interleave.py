#!/usr/bin/env python3
"""Median wall time of two or more commands, timed interleaved.

    bench/interleave.py --runs 11 --warmup 1 -- CMD_A CMD_B [CMD_C ...]
prints one line per command, in the order given: its median wall time in seconds.

Why interleave: the benchmark host is shared and its load drifts (the same command
varies by about 20 % from one minute to the next). Timing all runs of A and then all
runs of B lets a swing between the two blocks bias the ratio A/B. Here the commands
take turns (A B C, B C A, C A B, ...; the first command rotates so none always goes
first), so every command sees the same drift and the ratios of the medians hold.

A command with a pipe, redirection or other shell syntax runs through `bash -c`; any
other runs directly (shlex.split, no shell), so a shell's start is not timed. Output
goes to /dev/null; exit code 1 is fine (reqlint exits 1 when it finds errors), any other
exit code stops the script.
"""
import argparse
import shlex
import statistics
import subprocess
import sys
import time

SHELL_CHARS = set("|<>;&$`()")


def argv(command: str) -> list[str]:
    if SHELL_CHARS & set(command):
        return ["bash", "-c", command]
    return shlex.split(command)


def run(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - start
    # 0 and 1 are reqlint's "clean" and "found errors"; anything else means the command
    # failed, and its time would be a bogus figure.
    if done.returncode not in (0, 1):
        sys.exit(f"interleave.py: `{shlex.join(args)}` exited with {done.returncode}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each command")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs of each command first")
    parser.add_argument("commands", nargs="+", help="two or more shell commands")
    opts = parser.parse_args()
    if len(opts.commands) < 2 or opts.runs < 1 or opts.warmup < 0:
        parser.error("need two or more commands, --runs >= 1 and --warmup >= 0")
    commands = [argv(c) for c in opts.commands]
    for _ in range(opts.warmup):
        for args in commands:
            run(args)
    times: list[list[float]] = [[] for _ in commands]
    for r in range(opts.runs):
        for k in range(len(commands)):
            i = (r + k) % len(commands)  # round r starts with command r mod n
            times[i].append(run(commands[i]))
    for t in times:
        print(f"{statistics.median(t):.4f}")


if __name__ == "__main__":
    main()
