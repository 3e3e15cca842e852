#!/usr/bin/env python3
"""Compares benchmark results with the recorded ones in assets/reference/.

Usage: scripts/compare-recorded.py LIST_JSON BENCH_JSON...
  LIST_JSON   the output of `cuda-lessons-cli list --format json` (maps old ids to lessons)
  BENCH_JSON  outputs of `cuda-lessons-cli bench <chapter> ... --format json`

Each verified benchmark result is matched with the recorded result of the same lesson (by id, or
by the id or number it was recorded under) at the same parameters; prints a Markdown table of
both medians and their ratio, and exits 1 when a ratio is outside +-TOLERANCE (default 3%).
"""
import glob
import json
import os
import sys

TOLERANCE = float(os.environ.get("TOLERANCE", "0.03"))


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    lessons = json.load(open(sys.argv[1]))
    by_old = {}
    for l in lessons:
        by_old[l["id"]] = l
        if l.get("was"):
            slash = l["id"].index("/")
            by_old["%s/%02d-%s" % (l["id"][:slash], l["was"], l["id"][slash + 1:])] = l
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "reference")
    recorded = {}
    for f in sorted(glob.glob(os.path.join(root, "*.json"))):
        for r in json.load(open(f)):
            l = by_old.get(r.get("id"))
            if l and r.get("verified"):
                key = (l["id"], json.dumps(r.get("params"), sort_keys=True))
                recorded[key] = r  # the last one recorded wins, as in the GUI
    print("| lesson | id | parameters | recorded ms | now ms | now / recorded | kernel part: recorded, now ms |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    outside = 0
    for f in sys.argv[2:]:
        rows = json.load(open(f))
        for r in rows if isinstance(rows, list) else [rows]:
            if r.get("kind") != "gpu" or not r.get("verified"):
                continue
            key = (r["id"], json.dumps(r.get("params"), sort_keys=True))
            old = recorded.get(key)
            params = ", ".join("%s=%s" % kv for kv in sorted(r.get("params", {}).items()))
            if not old:
                print("| %s | %s | %s | none | %.4f | |" % (r["lesson"], r["id"], params,
                                                          r["median_ms"]))
                continue
            ratio = r["median_ms"] / old["median_ms"]
            k_old, k_now = old.get("parts", {}).get("kernel"), r.get("parts", {}).get("kernel")
            kernel = "%.4f, %.4f" % (k_old, k_now) if k_old and k_now and len(r["parts"]) > 1 else ""
            flag = "" if abs(ratio - 1) <= TOLERANCE else " (outside %d%%)" % round(TOLERANCE * 100)
            outside += flag != ""
            print("| %s | %s | %s | %.4f | %.4f | %.3f%s | %s |" % (
                r["lesson"], r["id"], params, old["median_ms"], r["median_ms"], ratio, flag, kernel))
    print("\n%d outside +-%g%%" % (outside, TOLERANCE * 100))
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
