#!/usr/bin/env python3
"""A stand-in for `cuda-lessons-cli serve` on a GPU machine, for the GUI's live paths without a
GPU: every lesson of the recorded results (assets/reference) runs "live" on "Fake GPU", with the
ceilings of an H100. A sweep is answered point by point with the recorded result at the same
values (times x1.05, relabelled live), a point nothing was recorded at is skipped. Each request
line is appended to the file FAKE_WORKER_LOG names, when set."""
import copy
import glob
import json
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
recorded = []
for path in sorted(glob.glob(os.path.join(here, "..", "assets", "reference", "*.json"))):
    recorded += json.load(open(path))
log = os.environ.get("FAKE_WORKER_LOG")


def out(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def done(i):
    out({"id": i, "type": "done", "status": "ok"})


def same_lesson(r, lesson):  # recorded ids may be older forms ("roofline/43-roofline")
    chapter, _, slug = lesson.partition("/")
    rc, _, rs = r["id"].partition("/")
    return rc == chapter and (rs == slug or rs.split("-", 1)[-1] == slug)


out({"type": "hello", "protocol": 2, "built_with_cuda": True})
for line in sys.stdin:
    if log:
        open(log, "a").write(line)
    r = json.loads(line)
    op, i = r.get("op"), r.get("id")
    if op == "list":
        ids = sorted({x["id"] for x in recorded})
        out({"id": i, "type": "list",
             "lessons": [{"id": x, "available": True, "unavailable_reason": None} for x in ids]})
        done(i)
    elif op == "info":
        out({"id": i, "type": "info",
             "device": {"available": True, "name": "Fake GPU", "free_memory_bytes": 80 << 30,
                        "sm_count": 132, "max_threads_per_sm": 2048, "clock_khz": 1980000,
                        "ceilings": {"read_gbps": 3190, "copy_gbps": 2990, "h2d_gbps": 55,
                                     "d2h_gbps": 50, "fp32_gflops": 65000}}})
        done(i)
    elif op == "attributes":
        out({"id": i, "type": "attributes", "lesson": r["lesson"], "params": r["params"],
             "attributes": {"kernel": "fake", "registers": 16, "static_smem_bytes": 0,
                            "max_threads_per_block": 1024, "active_blocks_per_sm": 8,
                            "occupancy": 1.0}})
        done(i)
    elif op == "sweep" and isinstance(r.get("values"), list):
        values = r["values"]
        for n, v in enumerate(values):
            params = dict(r["params"], **{r["over"]: v})
            match = [x for x in recorded if same_lesson(x, r["lesson"]) and
                     all(x["params"].get(k, params[k]) == params[k] for k in params)]
            if not match:
                out({"id": i, "type": "skipped", "point": n, "points": len(values)})
                continue
            res = copy.deepcopy(match[-1])
            for k in ("median_ms", "min_ms", "max_ms", "rate_ms"):
                if res.get(k):
                    res[k] *= 1.05
            res.update(id=r["lesson"], recorded=False, devices=["Fake GPU"],
                       timestamp="2026-11-27T10:00:00Z")
            time.sleep(0.05)
            out({"id": i, "type": "result", "point": n, "points": len(values), "result": res})
        done(i)
    elif op == "shutdown":
        done(i)
        break
    else:
        done(i)
