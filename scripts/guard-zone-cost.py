#!/usr/bin/env python3
"""What the guard zones of a checked run cost: each exercise's reference solution run as the
student's kernel (`run LESSON --kernel`), with and without `--no-guard-zones`, at the lesson's
default settings. A benchmark, not a test.

Usage (on a GPU machine): scripts/guard-zone-cost.py CLI [ROUNDS] [LESSON ...]
(default: 6 rounds; lessons 1.4 1.8 3.5 4.3 5.3 8.2 9.4 10.4).

The rounds alternate the order (with, without; then without, with), so that a drift of the
machine between two runs falls on both sides alike. For each lesson it prints the median of
the runs' medians each way and the median of the rounds' paired differences, with the
smallest and largest paired difference beside it: a zone cost is only read from the paired
median when the range of the pairs does not straddle zero widely.
"""
import json
import statistics
import subprocess
import sys
import tempfile

cli = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
lessons = sys.argv[3:] or ["1.4", "1.8", "3.5", "4.3", "5.3", "8.2", "9.4", "10.4"]


def solution(lesson):
    out = subprocess.run([cli, "exercise", lesson, "--solution", "--format", "json"],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)["solution"]


def median_ms(lesson, kernel, guarded):
    args = [cli, "run", lesson, "--kernel", kernel, "--no-ceilings", "--format", "json"]
    if not guarded:
        args.append("--no-guard-zones")
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        return None
    run = json.loads(out.stdout)["run"]
    run = run[0] if isinstance(run, list) else run
    return run["median_ms"] if run.get("verified") else None


print(f"{'lesson':<7} {'with zones ms':>14} {'without ms':>11} {'paired diff':>12} {'pairs range':>18}")
with tempfile.TemporaryDirectory() as tmp:
    for lesson in lessons:
        src = solution(lesson)
        if src is None:
            print(f"{lesson:<7} no exercise")
            continue
        path = f"{tmp}/{lesson}.cu"
        with open(path, "w") as f:
            f.write(src)
        with_ms, without_ms, diffs = [], [], []
        for r in range(rounds):
            order = (True, False) if r % 2 == 0 else (False, True)
            got = {g: median_ms(lesson, path, g) for g in order}
            if None in got.values():
                continue
            with_ms.append(got[True])
            without_ms.append(got[False])
            diffs.append(100.0 * (got[True] / got[False] - 1.0))
        if not diffs:
            print(f"{lesson:<7} no verified run")
            continue
        print(f"{lesson:<7} {statistics.median(with_ms):>14.4f} {statistics.median(without_ms):>11.4f} "
              f"{statistics.median(diffs):>+11.2f}% {min(diffs):>+8.2f}%..{max(diffs):>+6.2f}%",
              flush=True)
