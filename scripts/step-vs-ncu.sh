#!/usr/bin/env bash
# A benchmark, not a test (a bound between two timings is for a person to read): each step's
# reported time beside the time of its kernels under Nsight Compute, measured live, one after the
# other, at the page's settings.
#   reported  `CLI run STEP`'s median (CUDA events, StreamHold, back-to-back launches where short);
#   ncu       gpu__time_duration.sum of the step's kernels, per run, from `CLI profile STEP` with
#             only that counter (one pass: the kernel is not replayed), twice: with the caches
#             flushed before each kernel (ncu's default, --cache-control all), and with the
#             caches as the program left them (--cache-control none), which is how the step's own
#             samples run: after its output was written by the sample before (and by its NaN
#             fill), so that the L2 still holds lines to write back.
# Chapters 1 and 7 and 3.9 time the whole of a run (host waits, copies); their rows say so.
# `profile` names the project's kernels to ncu (its kernel filter); for a step that mixes them
# with a library's (10.1's cuBLAS GEMMs, 3.9's NCCL all-reduce: LIBRARY_INSIDE) this script drops
# the filter, so that ncu sees every kernel of the run, and sums all but the engine's own.
# Usage (on the GPU machine): scripts/step-vs-ncu.sh CLI [STEP...]   (default: one step of each
# GPU chapter and those that came out furthest apart, 2026-11-30). Needs ncu (PATH or CUDA_HOME).
set -u
cli=${1:?usage: scripts/step-vs-ncu.sh CLI [STEP...]}
shift
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(2.3 3.6 4.3 5.8 5.11 6.1 8.4 8.7 9.5 9.7 10.4 10.8)
ncu=$(command -v ncu || echo "${CUDA_HOME:-/usr/local/cuda}/bin/ncu")
[ -x "$ncu" ] || { echo "no ncu (PATH, \$CUDA_HOME/bin)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The ncu that `profile` starts (CUDA_LESSONS_NCU): its counters replaced by the kernel time alone,
# the cache control as NCU_CACHE says.
cat >"$work/ncu" <<EOF
#!/usr/bin/env bash
args=()
while [ \$# -gt 0 ]; do
    case "\$1" in
        --metrics) args+=(--metrics gpu__time_duration.sum); shift 2 ;;
        --kernel-name) [ "\$NCU_ALL" = 1 ] || args+=("\$1" "\$2"); shift 2 ;;
        *) args+=("\$1"); shift ;;
    esac
done
exec "$ncu" --cache-control "\$NCU_CACHE" "\${args[@]}"
EOF
chmod +x "$work/ncu"
library_inside=" ${LIBRARY_INSIDE:-3.9 10.1} "
for step in "${steps[@]}"; do
    timeout 120 "$cli" run "$step" --format json >"$work/run-$step.json" 2>"$work/run-$step.err"
    all=0
    [[ $library_inside == *" $step "* ]] && all=1
    for cache in all none; do
        NCU_ALL=$all NCU_CACHE=$cache CUDA_LESSONS_NCU="$work/ncu" \
            timeout 180 "$cli" profile "$step" --format json >"$work/ncu-$cache-$step.json" 2>&1
    done
done
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
date -u +%FT%TZ
python3 - "$work" "${steps[@]}" <<'PY'
import json, sys
work, steps = sys.argv[1], sys.argv[2:]

# The engine's own kernels (the timing hold, the L2 flush, the ceilings): never a step's work.
ENGINE_KERNELS = ("hold_kernel", "flush_l2_kernel", "ceiling_")


def load(path):
    try:
        text = open(path).read()
        return json.loads(text[text.index("{"):])
    except (OSError, ValueError):
        return None

print("| step | reported ms | SM clock | ncu ms, caches flushed | apart | ncu ms, caches as left | apart |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for step in steps:
    run = load("%s/run-%s.json" % (work, step))
    if not run or "median_ms" not in run:
        err = open("%s/run-%s.err" % (work, step)).read().strip().splitlines()
        print("| %s | run failed: %s | | | | | |" % (step, err[-1] if err else "no output"))
        continue
    # `profile` runs the step's check and one timed run under ncu: its kernels per run are half.
    runs = 2
    cells = []
    for cache in ("all", "none"):
        prof = load("%s/ncu-%s-%s.json" % (work, cache, step))
        live = prof and prof.get("source") == "live"
        ns = sum(k["counters"]["gpu__time_duration.sum"]["value"] for k in prof["kernels"]
                 if not any(e in k.get("name", "") for e in ENGINE_KERNELS)
                 if "gpu__time_duration.sum" in k.get("counters", {})) if live else 0
        if not ns:
            cells += ["not profiled", ""]
            continue
        ms = ns / 1e6 / runs
        apart = (run["median_ms"] / ms - 1) * 100
        mark = " (> 3%)" if abs(apart) > 3 else ""
        cells += ["%.4f" % ms, "%+.1f%%%s" % (apart, mark)]
    # 3.9 is judged end to end too: the shares' kernels, then NCCL's all-reduce, host calls between.
    whole = (run.get("chapter") in ("split", "allreduce")
             or run.get("id") == "reduce/multi-gpu-nccl")
    clock = "%.0f MHz" % run["sm_clock_mhz"] if run.get("sm_clock_mhz") else "-"
    print("| %s%s | %.4f | %s | %s |" % (step, " (whole run)" if whole else "", run["median_ms"],
                                         clock, " | ".join(cells)))
PY
