#!/usr/bin/env python3
"""Writes assets/tunings/reference.json: the tunings of the reference GPUs, taken from the
recorded sweeps in assets/reference/ and its folders per GPU (no new measurement). For each GPU step of its own kernels,
the recorded results are grouped by every parameter but the launch shape (block or tile); the
group with the most launch shapes measured (the sweep) gives the fastest verified one.
Usage: scripts/tunings-from-reference.py CLI  (the built cuda-lessons-cli, for the catalogue)"""
import glob, json, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build/cli/cuda-lessons-cli")
lessons = {l["id"]: l for l in json.loads(subprocess.check_output([cli, "list", "--format", "json"]))}
# Results recorded before chapters numbered their own lessons name them "chapter/NN-slug".
old_ids = {}
for l in lessons.values():
    if l.get("was"):
        old_ids[f'{l["chapter_id"]}/{l["was"]:02d}-{l["id"].split("/", 1)[1]}'] = l["id"]
rows = []
for f in sorted(glob.glob(os.path.join(root, "assets/reference/*.json")) +
               glob.glob(os.path.join(root, "assets/reference/*/*.json"))):
    rows += [r for r in json.load(open(f)) if isinstance(r, dict)]
groups = {}
for r in rows:
    r["id"] = old_ids.get(r.get("id"), r.get("id"))
    l = lessons.get(r["id"])
    if not l or l["kind"] != "gpu" or l["library"] or len(r.get("devices") or []) != 1:
        continue
    names = [p["name"] for p in l["params"]]
    shape = "tile" if "tile" in names else "block" if "block" in names else None
    if not shape or shape not in r["params"]:
        continue
    at = {k: v for k, v in r["params"].items() if k != shape}
    key = (r["id"], r["devices"][0], json.dumps(at, sort_keys=True))
    groups.setdefault(key, {"shape": shape, "at": at, "runs": {}})
    groups[key]["runs"][str(r["params"][shape])] = r   # the latest result per shape
# The time compared, as `tune` compares: the part the step's rates are over (the kernel of a
# GPU step that copies too), else the whole run.
def compared(r):
    return r["rate_ms"] if r.get("rate_ms", 0) > 0 else r["median_ms"]

best = {}
for (lid, device, _), g in groups.items():
    runs = [r for r in g["runs"].values() if r.get("verified")]
    if len(runs) < 2:
        continue
    prev = best.get((lid, device))
    if prev and len(prev["runs"]) >= len(runs):
        continue
    best[(lid, device)] = {"shape": g["shape"], "at": g["at"], "runs": runs}
out = []
for (lid, device), g in sorted(best.items()):
    runs = g["runs"]
    fastest = min(runs, key=compared)
    default = lessons[lid]["params"]
    shape_default = [p["default"] for p in default if p["name"] == g["shape"]][0]
    at_default = [r for r in runs if r["params"][g["shape"]] == shape_default]
    out.append({"id": lid, "machine": device,
                "values": {g["shape"]: fastest["params"][g["shape"]]},
                "at": g["at"],
                "best_ms": compared(fastest),
                "default_ms": compared(at_default[0]) if at_default else compared(fastest),
                "when": max(r.get("timestamp", "") for r in runs)})
os.makedirs(os.path.join(root, "assets/tunings"), exist_ok=True)
path = os.path.join(root, "assets/tunings/reference.json")
json.dump(out, open(path, "w"), indent=1)
open(path, "a").write("\n")
print(f"{path}: {len(out)} tunings from the recorded sweeps")
