#!/usr/bin/env bash
# The multi-GPU lessons' check on a machine with 2 or more GPUs (1.12-1.14, 3.9, 7.1-7.4), in
# one call: where NCCL is, `info`, the multi-GPU tests, `bench 7`, `bench 1` and `bench 3` at
# BENCH_SIZE with every GPU present (1.11 and 3.7 on one GPU in the same run, to compare),
# and compute-sanitizer memcheck on the new steps at odd sizes on every GPU.
# Usage (from the repository root): scripts/multi-gpu-check.sh [BUILD_DIR] [BENCH_SIZE]
# BUILD_DIR holds cuda-lessons-cli and test_gpu / test_multi_gpu, in a CMake build's layout
# (cli/, tests/) or side by side (a carried folder). Logs and JSON go to $OUT (or
# ./multi-gpu-check-out); the lines worth reading go to $OUT/summary.txt.
set -u -o pipefail
build=${1:-build-gpu}
size=${2:-1GiB}
out=${OUT:-multi-gpu-check-out}
mkdir -p "$out"
find_bin() { for p in "$build/$1" "$build/cli/$1" "$build/tests/$1"; do [ -x "$p" ] && { echo "$p"; return; }; done; }
cli=$(find_bin cuda-lessons-cli)
[ -n "$cli" ] || { echo "no cuda-lessons-cli in $build" >&2; exit 1; }
export LESSONS_CLI="$PWD/$cli"
log() { echo "== $* ($(date -u +%H:%M:%S))" | tee -a "$out/summary.txt"; }
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
log "start: $gpus GPUs"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$out/summary.txt"
nvidia-smi topo -m >"$out/topo.txt" 2>&1
# NCCL: the program finds it through the loader or the toolkit; else try pip's copy.
{ ldconfig -p | grep -i nccl; ls /usr/local/cuda/lib64/ | grep -i nccl
  python3 -c 'import nvidia.nccl as m; print(list(m.__path__))'; } >"$out/nccl-where.txt" 2>&1
if ! "$LESSONS_CLI" info --format json 2>/dev/null |
    python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["nccl"].startswith("/") else 1)'; then
    p=$(python3 -c 'import nvidia.nccl as m,os; print(os.path.join(list(m.__path__)[0],"lib","libnccl.so.2"))' 2>/dev/null)
    [ -n "$p" ] && [ -f "$p" ] && export CUDA_LESSONS_NCCL="$p"
fi
echo "CUDA_LESSONS_NCCL=${CUDA_LESSONS_NCCL:-}" | tee -a "$out/summary.txt"
timeout 60 "$LESSONS_CLI" info >"$out/info.txt" 2>&1
grep -E "peer|NCCL" "$out/info.txt" | tee -a "$out/summary.txt"

log tests
t=$(find_bin test_multi_gpu); [ -n "$t" ] && { timeout 60 "$t" >"$out/test_multi_gpu.log" 2>&1; echo "test_multi_gpu rc=$?" | tee -a "$out/summary.txt"; }
t=$(find_bin test_gpu)
if [ -n "$t" ]; then
    timeout 300 "$t" --gtest_filter='MultiGpu*:Nccl*:Gpu.DevicesAndCeilings' >"$out/test_gpu.log" 2>&1
    echo "test_gpu (multi-GPU) rc=$?" | tee -a "$out/summary.txt"
    grep -E "^\[  (FAILED|PASSED|SKIPPED) |Failure|Expected|Which is|note:" "$out/test_gpu.log" | head -40 | tee -a "$out/summary.txt"
fi

for c in 7 1 3; do
    log "bench $c at $size, gpus=$gpus"
    timeout 300 "$LESSONS_CLI" bench $c --size "$size" --set gpus="$gpus" --format json >"$out/bench$c.json" 2>"$out/bench$c.err"
    echo "rc=$?" | tee -a "$out/summary.txt"
    python3 - "$out/bench$c.json" <<'PY' | tee -a "$out/summary.txt"
import json, sys
for r in json.load(open(sys.argv[1])):
    if r["kind"] != "gpu":
        continue
    parts = " ".join(f"{k}={v:.3f}" for k, v in (r.get("parts") or {}).items() if not k.startswith("gpu"))
    print(r["lesson"], "gpus=%s" % r["params"].get("gpus", 1), "%.3f ms" % r["median_ms"],
          "%.1f GB/s" % r["gbps"], "%s%% of %s" % (round(r["pct_of_ceiling"] or 0, 1), r["bound"]),
          "ok" if r["verified"] else "WRONG " + str(r.get("check")), parts)
PY
done

log "memcheck on $gpus GPUs, odd sizes"
k=0
for a in "12 --size 12289 --data dense" "13 --size 12289 --data dense" "14 --size 12289 --data dense" \
         "14 --size 1000003" "44 --size 4000012 --set threads=4" "45 --size 4000012" "46 --size 4000012" \
         "46 --size 20" "27 --size 4000012" "47 --size 4000012"; do
    k=$((k + 1)); set -- $a; n=$1; shift
    # NCCL's own start-up probes kernels it has no image for (API errors it handles itself):
    # for the NCCL lessons only memory errors are reported.
    api=all; case $n in 27 | 47) api=no ;; esac
    timeout 120 compute-sanitizer --tool memcheck --report-api-errors $api --error-exitcode 9 \
        "$LESSONS_CLI" run "$n" "$@" --set gpus="$gpus" --reps 1 --no-ceilings >"$out/san-$k-$n.log" 2>&1
    echo "memcheck $a: rc=$? $(grep -E 'ERROR SUMMARY' "$out/san-$k-$n.log" | tail -1)" | tee -a "$out/summary.txt"
done
log done
