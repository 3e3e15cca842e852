#!/bin/bash
# sm9fast bundle: chapter 9.7's cluster softmax against candidates on the H200.
# Run from the repository root with $OUT set: bash gpu-bundle/sm9fast/run.sh
set -u
OUT=${OUT:-/tmp/sm9fast-out}
mkdir -p "$OUT"
D=gpu-bundle/sm9fast
BIN=$D/bench
# The binary is built on the workstation (bench.sha: the source it was built from); rebuilt
# here only when it is missing or stale and nvcc is present.
SHA=$(cat $D/bench.cu kernels/softmax/cluster.cu kernels/softmax/softmax_device.cuh | sha1sum | cut -c1-40)
if [ ! -x "$BIN" ] || [ "$(cat $D/bench.sha 2>/dev/null)" != "$SHA" ]; then
    echo "bench binary missing or stale; building"
    nvcc -O3 -std=c++17 -arch=sm_90a -lineinfo -Ikernels -o "$BIN" $D/bench.cu || exit 1
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$OUT/gpu.txt"
START=$(date +%s)
timeout 300 "$BIN" "$OUT/bench.jsonl" ${FILTER:-} 2>&1 | tee "$OUT/bench.txt"
echo "bench took $(( $(date +%s) - START )) s"
# Counters on the most interesting configs (256 x 262144 bf16), < 120 s.
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null 2>&1; then
    for cfg in "main b512 cluster auto0" "hyb b256 kr0 mb1 c8" "hyb b512 kr8 mb2 c8"; do
        tag=$(echo "$cfg" | tr ' ' '_')
        SHAPES=256x262144 DTYPES=bf16 timeout 60 ncu --clock-control none --section SpeedOfLight \
            --section Occupancy --section LaunchStats --section WarpStateStats \
            -k regex:'hyb_kernel|softmax_cluster' --launch-count 1 \
            "$BIN" /dev/null "$cfg" > "$OUT/ncu_$tag.txt" 2>&1
        echo "--- ncu $cfg"
        grep -E "Duration|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Cluster Size|Issue Slots|Warp Cycles Per Issued" "$OUT/ncu_$tag.txt" | head -20
    done
fi
echo "=== summary: best config per shape (ok rows only)"
python3 - "$OUT/bench.jsonl" <<'PY'
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = collections.defaultdict(list)
for r in rows:
    by[(r['m'], r['n'], r['dtype'])].append(r)
wrong = [r for r in rows if not r.get('ok', True) or 'error' in r]
for k, rs in by.items():
    ok = [r for r in rs if r.get('ok')]
    ok.sort(key=lambda r: -r['pct'])
    main = [r for r in ok if r['config'].startswith('main')]
    print(f"{k[0]}x{k[1]} {k[2]}: best main {main[0]['config'] if main else '-'} {main[0]['pct'] if main else 0:.1f}%")
    for r in ok[:6]:
        print(f"    {r['config']:32s} {r['pct']:6.1f}%  regs {r['regs']}  clusters {r['clusters']}  smem {r['smem']}")
print(f"{len(rows)} configs, {len(wrong)} WRONG or failed")
for r in wrong[:20]:
    print("  WRONG/ERR", r)
PY
