#!/usr/bin/env python3
"""The library steps beside PyTorch's timing of the same library call, in one session.

Usage (on the GPU machine): scripts/library-vs-torch.py CLI
For lessons 4.4 (cuBLAS SGEMV, 8192 x 8192), 5.9 (cuBLAS SGEMM fp32), 5.11 (cuBLAS TF32) and
8.7 (cuBLAS bf16), all at 4096^3: the step's median from `CLI run` and PyTorch's median of the
same call timed with CUDA events around each of 50 back-to-back calls (after 10 warm-ups).
Prints a table. A benchmark, not a test.
"""
import json
import subprocess
import sys

import torch

cli = sys.argv[1]


def torch_ms(fn, warm=10, reps=50):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
             for _ in range(reps)]
    for s, e in pairs:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in pairs)
    return times[len(times) // 2]


def step_ms(lesson, *args):
    out = subprocess.run([cli, "run", lesson, *args, "--format", "json"], capture_output=True,
                         text=True, timeout=300)
    if out.returncode != 0:
        return None, out.stderr.strip()[-200:]
    r = json.loads(out.stdout)
    r = r[0] if isinstance(r, list) else r
    return r.get("median_ms"), "verified" if r.get("verified") else "NOT verified"


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
             torch_ms(lambda: torch.mv(A, x))))
rows.append(("5.9 cuBLAS SGEMM 4096^3", step_ms("5.9", "--set", "m=4096", "--set", "n=4096",
                                                 "--set", "k=4096"),
             torch_ms(lambda: torch.mm(a32, b32))))
torch.backends.cuda.matmul.allow_tf32 = True
rows.append(("5.11 cuBLAS TF32 4096^3", step_ms("5.11", "--set", "m=4096", "--set", "n=4096",
                                                 "--set", "k=4096"),
             torch_ms(lambda: torch.mm(a32, b32))))
rows.append(("8.7 cuBLAS bf16 4096^3", step_ms("8.7", "--set", "m=4096", "--set", "n=4096",
                                                "--set", "k=4096"),
             torch_ms(lambda: torch.mm(abf, bbf))))

print(f"{'step':28} {'step ms':>9} {'torch ms':>9} {'diff':>7}  check")
for name, (ms, note), tms in rows:
    if ms is None:
        print(f"{name:28} {'-':>9} {tms:9.4f} {'-':>7}  {note}")
        continue
    print(f"{name:28} {ms:9.4f} {tms:9.4f} {100 * (ms / tms - 1):+6.1f}%  {note}")
