#!/usr/bin/env python3
"""The library steps beside PyTorch's timing of the same library call, in one session.

Usage (on the GPU machine): scripts/library-vs-torch.py CLI
For lessons 4.4 (cuBLAS SGEMV, 8192 x 8192), 5.9 (cuBLAS SGEMM fp32), 5.11 (cuBLAS TF32) and
8.7 (cuBLAS bf16), all at 4096^3: the step's median from `CLI run`, with the SM clock it was
timed at, beside PyTorch's median of the same call timed with CUDA events around each call,
in two regimes:
- burst: 50 back-to-back calls after 10 warm-ups and a rest, as a quick PyTorch timing does;
- sustained: back-to-back calls for about as long as the step's own timing (2 s), so that the
  board reaches the clock its power cap allows, as the step's samples do.
Each regime is followed by the SM clock nvidia-smi reads. Like is compared with like: the step
with the sustained figure. Prints a table. A benchmark, not a test.
"""
import json
import subprocess
import sys
import time

import torch

cli = sys.argv[1]


def smi_clock():
    out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw",
                          "--format=csv,noheader,nounits"], capture_output=True, text=True)
    return out.stdout.strip().replace(", ", " MHz ") + " W" if out.returncode == 0 else "-"


def torch_ms(fn, warm=10, reps=50, seconds=None):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    if seconds is not None:  # as many calls as fill about `seconds`
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        reps = max(50, min(20000, int(seconds * 1000 / max(s.elapsed_time(e), 1e-3))))
    else:
        time.sleep(0.5)  # a rest: the burst starts from an unloaded board
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
             for _ in range(reps)]
    for s, e in pairs:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    clock = smi_clock()
    times = sorted(s.elapsed_time(e) for s, e in pairs)
    return times[len(times) // 2], clock


def step_ms(lesson, *args):
    out = subprocess.run([cli, "run", lesson, *args, "--format", "json"], capture_output=True,
                         text=True, timeout=300)
    if out.returncode != 0:
        return None, out.stderr.strip()[-200:], "-"
    r = json.loads(out.stdout)
    r = r[0] if isinstance(r, list) else r
    clock = "-"
    if r.get("sm_clock_mhz"):
        clock = "%.0f MHz" % r["sm_clock_mhz"]
        if r.get("clock_limits"):
            clock += " (" + ", ".join(r["clock_limits"]) + ")"
    return r.get("median_ms"), "verified" if r.get("verified") else "NOT verified", clock


def both(fn):
    return torch_ms(fn), torch_ms(fn, seconds=2.0)


torch.manual_seed(0)
n = 4096
a32 = torch.randn(n, n, device="cuda")
b32 = torch.randn(n, n, device="cuda")
abf = a32.bfloat16()
bbf = b32.bfloat16()
m = 8192
A = torch.randn(m, m, device="cuda")
x = torch.randn(m, device="cuda")

rows = []
torch.backends.cuda.matmul.allow_tf32 = False
rows.append(("4.4 cuBLAS SGEMV 8192^2", step_ms("4.4", "--set", "m=8192", "--set", "n=8192"),
             both(lambda: torch.mv(A, x))))
rows.append(("5.9 cuBLAS SGEMM 4096^3", step_ms("5.9", "--set", "m=4096", "--set", "n=4096",
                                                 "--set", "k=4096"),
             both(lambda: torch.mm(a32, b32))))
torch.backends.cuda.matmul.allow_tf32 = True
rows.append(("5.11 cuBLAS TF32 4096^3", step_ms("5.11", "--set", "m=4096", "--set", "n=4096",
                                                 "--set", "k=4096"),
             both(lambda: torch.mm(a32, b32))))
rows.append(("8.7 cuBLAS bf16 4096^3", step_ms("8.7", "--set", "m=4096", "--set", "n=4096",
                                                "--set", "k=4096"),
             both(lambda: torch.mm(abf, bbf))))

print(f"{'step':26} {'step ms':>9} {'its clock':>22} | {'burst ms':>9} {'clock after':>18} | "
      f"{'sustained':>9} {'clock after':>18} | {'vs sust.':>8} {'vs burst':>8}  check")
for name, (ms, note, clock), ((bms, bclk), (sms, sclk)) in rows:
    if ms is None:
        print(f"{name:26} {'-':>9} {'-':>22} | {bms:9.4f} {bclk:>18} | {sms:9.4f} {sclk:>18} |"
              f" {'-':>8} {'-':>8}  {note}")
        continue
    print(f"{name:26} {ms:9.4f} {clock:>22} | {bms:9.4f} {bclk:>18} | {sms:9.4f} {sclk:>18} |"
          f" {100 * (ms / sms - 1):+7.1f}% {100 * (ms / bms - 1):+7.1f}%  {note}")
