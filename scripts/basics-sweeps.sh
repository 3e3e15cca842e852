#!/usr/bin/env bash
# Chapter 2's families on the GPU machine: every sweep its lessons' texts ask for, written to
# ONE file ($OUT/basics-sweeps.jsonl, one JSON array per line, each line prefixed by its name)
# and a summary table on stdout. (The device tool returns only a few files: keep it to one.)
# Usage: scripts/basics-sweeps.sh [BUILD_DIR]   (about 40 s on an H100)
set -u
cli=${1:-build-gpu}/cli/cuda-lessons-cli
[ -x "$cli" ] || cli=${1:-build-gpu}/cuda-lessons-cli
[ -x "$cli" ] || { echo "no cuda-lessons-cli under ${1:-build-gpu}" >&2; exit 1; }
out=${OUT:-gpu-check-out}
mkdir -p "$out"
file="$out/basics-sweeps.jsonl"
: >"$file"
sweep() {
    local name=$1
    shift
    printf '%s\t' "$name" >>"$file"
    timeout 20 "$cli" sweep "$@" --format json | tr -d '\n' >>"$file"
    echo >>"$file"
}
sweep global-vs-shared-variant basics/global-vs-shared --over variant=all --size 256MiB
sweep global-vs-shared-rows basics/global-vs-shared --over rows=32..8192 --size 256MiB --set variant=shared-one-thread
sweep branch-divergence basics/branch-divergence --over divergence=all --size 64MiB
sweep coalescing-stride basics/coalescing --over stride=all --size 256MiB
sweep coalescing-stride-block1024 basics/coalescing --over stride=all --size 256MiB --block 1024
sweep coalescing-offset basics/coalescing --over offset=0,1,2,4,8,16,32 --size 256MiB
for m in pinned registered pageable; do
    sweep "pinned-transfers-sizes-$m" basics/pinned-transfers --sizes 4KiB..1GiB --set memory=$m --reps 5
done
python3 - "$file" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    name, _, body = line.rstrip("\n").partition("\t")
    try:
        results = json.loads(body)
    except ValueError:
        print(name, "no result"); continue
    for r in results:
        p = {k: v for k, v in r["params"].items() if k not in ("data",)}
        rate = r["gflops"] / 1000 if r["bound"] == "fp32" else r["gbps"]
        unit = "TFLOP/s" if r["bound"] == "fp32" else "GB/s"
        pct = r.get("pct_of_ceiling")
        print(f"{name:22} {json.dumps(p):70} {r['median_ms']:10.4f} ms {rate:9.1f} {unit}"
              f" {'' if pct is None else f'{pct:5.1f}%'} {'ok' if r['verified'] else 'WRONG'}")
PY
