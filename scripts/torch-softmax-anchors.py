#!/usr/bin/env python3
"""PyTorch's softmax and RMSNorm at chapter 9's shapes, and a device copy, on this GPU: the anchors
the chapter's pages set its kernels beside ({{anchor OP ...}}, docs/pages.md).

Usage (on the GPU machine): scripts/torch-softmax-anchors.py [--write FILE] [--shapes LIST]
Prints one JSON object per line (the versions, then one per op and shape); --shapes replaces the
shapes measured (a comma-separated list of MxN:DTYPE, e.g. 4096x1024:bf16,1024x16384:fp32); with
--write, also
writes FILE in the form of assets/anchors/<gpu>/pytorch-softmax.json. Median of 20 timed calls
(CUDA events, after 3 warm-up calls), in GB/s of the bytes that must move (x read + y written,
+ w for RMSNorm), the chapter's own count. A benchmark, not a test.
"""
import json
import statistics
import sys
import time

import torch
import torch.nn.functional as F

SHAPES = [(65536, 1024, "fp32"), (16384, 4096, "bf16"), (1024, 65536, "fp32"), (256, 262144, "bf16"),
          (16384, 4096, "fp32"), (65536, 1024, "bf16")]


def median_ms(fn, reps=20, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times), min(times), max(times)


def main():
    write = sys.argv[sys.argv.index("--write") + 1] if "--write" in sys.argv else None
    shapes = SHAPES
    if "--shapes" in sys.argv:
        shapes = []
        for item in sys.argv[sys.argv.index("--shapes") + 1].split(","):
            size, dtype = item.split(":")
            m, n = size.split("x")
            if dtype not in ("fp32", "bf16"):
                sys.exit(f"--shapes: {item}: the dtype is fp32 or bf16")
            shapes.append((int(m), int(n), dtype))
    dev = torch.device("cuda")
    head = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
            "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version()}
    print(json.dumps(head))
    recorded = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    for m, n, dtype in shapes:
        dt = torch.float32 if dtype == "fp32" else torch.bfloat16
        x = torch.randn(m, n, device=dev, dtype=dt)
        w = (torch.rand(n, device=dev, dtype=dt) + 0.5)
        y = torch.empty_like(x)
        nbytes = x.numel() * x.element_size()
        rms = getattr(F, "rms_norm", None)
        cases = [("copy", lambda: y.copy_(x), 2 * nbytes),
                 ("torch.softmax", lambda: torch.softmax(x, dim=-1), 2 * nbytes)]
        if rms is not None:
            cases.append(("F.rms_norm", lambda: rms(x, (n,), w, 1e-6), 2 * nbytes + n * x.element_size()))
        for name, fn, moved in cases:
            med, lo, hi = median_ms(fn)
            row = {"op": name, "m": m, "n": n, "dtype": dtype, "median_ms": round(med, 5),
                   "min_ms": round(lo, 5), "max_ms": round(hi, 5),
                   "gbps": round(moved / (med * 1e6), 1)}
            rows.append(row)
            print(json.dumps(row))
            sys.stdout.flush()
        del x, y, w
        torch.cuda.empty_cache()
    if write:
        c = head["cudnn"] or 0
        cudnn = f"{c // 10000}.{c % 10000 // 100}.{c % 100}" if c >= 10000 else str(c)
        doc = {
            "what": "PyTorch's softmax and RMSNorm over rows, and a device copy, at chapter 9's "
                    "shapes: the rates the chapter's kernels are held beside (pages: "
                    "{{anchor OP ...}}, docs/pages.md)",
            "program": f"PyTorch {head['torch']} (CUDA {head['cuda']}; cuDNN {cudnn})",
            "device": head["gpu"], "chapter": "softmax", "recorded": recorded,
            "versions": {"torch": head["torch"], "cuda": head["cuda"], "cudnn": cudnn},
            "script": "scripts/torch-softmax-anchors.py",
            "method": "x = torch.randn(m, n) in the dtype, w = torch.rand(n) + 0.5; ops: "
                      "torch.softmax(x, dim=-1), torch.nn.functional.rms_norm(x, (n,), w, 1e-6), "
                      "y.copy_(x); 3 warm-up calls, then 20 calls each timed alone with CUDA "
                      "events; median, min and max in ms; gbps = bytes that must move / median "
                      "(x read + y written, + w for RMSNorm), the chapter's own count",
            "results": rows,
        }
        with open(write, "w") as f:
            f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
