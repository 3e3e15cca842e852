#!/usr/bin/env python3
"""Each profiled step's reported time against its kernels' time under Nsight Compute.

Usage: scripts/compare-ncu.py [REFERENCE_DIR [COUNTERS_DIR]]  (default assets/reference/h200,
assets/counters/h200). For every step in the counters files, the recorded result of the same
step at the same parameters (the latest) is found, and its median is set beside the sum of its
kernels' gpu__time_duration.sum (ns). Prints a table; a step whose time is more than 3% above
or below its kernels' is marked. A benchmark, not a test: the two come from different runs.
"""
import glob
import json
import os
import sys

ref_dir = sys.argv[1] if len(sys.argv) > 1 else "assets/reference/h200"
cnt_dir = sys.argv[2] if len(sys.argv) > 2 else "assets/counters/h200"


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
        return data if isinstance(data, list) else []
    except (OSError, ValueError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        return []


rows = []
for counters_path in sorted(glob.glob(os.path.join(cnt_dir, "*.json"))):
    results = load(os.path.join(ref_dir, os.path.basename(counters_path)))
    for entry in load(counters_path):
        kernels = entry.get("kernels") or []
        ns = [k.get("counters", {}).get("gpu__time_duration.sum", {}).get("value") for k in kernels]
        if not kernels or any(v is None for v in ns):
            continue
        params = entry.get("params", {})
        match = [r for r in results if r.get("id") == entry.get("id") and r.get("verified")
                 and all(r.get("params", {}).get(k) == v for k, v in params.items())]
        if not match:
            continue
        r = match[-1]
        parts = r.get("parts") or {}
        if "h2d" in parts and "kernel" not in parts:
            continue  # timed as a whole, copies and kernels overlapped (lesson 1.11)
        # The kernel part where the step reports one (chapter 1 times copies too), else its rate's.
        ms = (r.get("parts") or {}).get("kernel") or r.get("rate_ms") or r.get("median_ms")
        # The step is profiled over several runs (the same kernels in the same order each run):
        # a run's kernels are those up to the first kernel's next appearance.
        names = [(k.get("name"), k.get("grid"), k.get("block")) for k in kernels]
        runs = max(1, names.count(names[0]))
        if len(names) % runs or names != names[: len(names) // runs] * runs:
            runs = 1
        ncu_ms = sum(ns) / runs / 1e6
        n_kernels = len(kernels) // runs
        rows.append((entry.get("lesson", "?"), entry.get("id"), n_kernels, ms, ncu_ms,
                     100.0 * (ms / ncu_ms - 1.0) if ncu_ms > 0 else float("nan")))

print(f"{'step':6} {'id':40} {'kernels/run':>7} {'reported ms':>12} {'ncu ms':>10} {'diff':>8}")
off = 0
for lesson, ident, n, ms, ncu_ms, diff in rows:
    mark = "" if abs(diff) <= 3.0 else "  > 3%"
    off += bool(mark)
    print(f"{lesson:6} {ident:40} {n:7d} {ms:12.4f} {ncu_ms:10.4f} {diff:+7.1f}%{mark}")
print(f"{len(rows)} steps compared, {off} more than 3% apart")
