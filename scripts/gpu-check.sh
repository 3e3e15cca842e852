#!/usr/bin/env bash
# The GPU machine's whole check, in one call (see ../shared/DEVICE.md):
#   GPU tests, compute-sanitizer over every GPU lesson at small sizes, and the benchmark.
# Usage (on the GPU machine, from the repository root, with a carried build folder):
#   scripts/gpu-check.sh [BUILD_DIR] [BENCH_SIZE]
# STEPS (default "tests sass sanitizer bench sweeps"; also "counters") picks the parts; SANITIZER_TOOLS (default
# "memcheck racecheck synccheck") the compute-sanitizer tools for hand-written kernels, and
# SANITIZER_LESSONS (default: every GPU lesson) the lessons they check.
# Logs and JSON go to $OUT (or ./gpu-check-out); a summary is printed last. The recorded
# results of every chapter come back as reference.tar (reference-<chapter>.json files).
set -u
build=${1:-build-gpu}
size=${2:-1GiB}
out=${OUT:-gpu-check-out}
steps=${STEPS:-tests sass sanitizer bench sweeps}
tools_own=${SANITIZER_TOOLS:-memcheck racecheck synccheck}
step() { case " $steps " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
mkdir -p "$out"
cli="$build/cli/cuda-lessons-cli"
[ -x "$cli" ] || { echo "no $cli: build or carry it first" >&2; exit 1; }
export LESSONS_CLI="$PWD/$cli"
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

note "date: $(date -u +%Y-%m-%dT%H:%MZ)"
note "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"
"$cli" info | tee "$out/info.txt"
# The device and its ceilings as data (assets/info/<gpu>.json: the GUI's prediction box reads the
# recorded GPU's ceilings, SM count and clock from it on a machine without a GPU), with the time.
"$cli" info --format json 2>/dev/null | python3 -c '
import json, sys, datetime
j = json.load(sys.stdin)
j["recorded_at"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(j, open(sys.argv[1], "w"), indent=1)' "$out/info.json" || note "info --format json: failed"

# 1. Every test binary (unit tests too: they must pass where a GPU is present).
failed=0
step tests || note "tests: not run (STEPS)"
for t in "$build"/tests/test_*; do
    step tests || break
    [ -x "$t" ] || continue
    name=$(basename "$t")
    echo "=== $name" >>"$out/tests.log"
    if "$t" >"$out/test.tmp" 2>&1; then
        note "test $name: $(grep -E '^\[  PASSED  \]' "$out/test.tmp"), $(grep -cE '^\[  SKIPPED \] [A-Za-z]' "$out/test.tmp") skipped"
    else
        failed=1
        note "test $name: FAILED"
        grep -E 'Failure|FAILED|Which is|Expected' "$out/test.tmp" | head -40
    fi
    cat "$out/test.tmp" >>"$out/tests.log"
    rm -f "$out/test.tmp"
done

# 1b. The 16-byte-load lessons' SASS, with this machine's cuobjdump on the carried objects.
if step sass; then
    if scripts/check-sass.sh "$build" >"$out/sass.log" 2>&1; then
        note "sass: 128-bit loads where expected ($(grep -c '^ok' "$out/sass.log") checks)"
    else
        failed=1
        note "sass: FAILED"
        grep -E 'FAILED|SKIPPED|no kernel' "$out/sass.log"
    fi
fi

# 2. compute-sanitizer over every GPU lesson at small and odd sizes: memcheck for all,
#    racecheck and synccheck for the hand-written kernels (library steps: memcheck only).
lessons_json=$("$cli" list --format json)
gpu_lessons=$(echo "$lessons_json" | python3 -c \
    'import json,sys; print(" ".join(l["id"] for l in json.load(sys.stdin) if l["kind"]=="gpu"))')
san_log="$out/sanitizer.log"
: >"$san_log"
san_fail=0
san_jobs="$out/sanitizer.jobs"
: >"$san_jobs"
# A memcheck job of the lesson at settings $1 for each of its tile configurations ($tiles).
memcheck_each_tile() {
    [ "$tiles" = - ] && return 0
    for tile in ${tiles//,/ }; do echo "memcheck|$lesson|$1 --set tile=$tile" >>"$san_jobs"; done
}
step sanitizer || note "sanitizer: not run (STEPS)"
for lesson in ${SANITIZER_LESSONS:-$gpu_lessons}; do
    step sanitizer || break
    info=$(echo "$lessons_json" | python3 -c "import json,sys; l=[x for x in json.load(sys.stdin) if x['id']=='$lesson'][0]; b=[p['values'] for p in l['params'] if p['name']=='block']; t=[p['choices'] for p in l['params'] if p['name']=='tile']; print(l['chapter_id'], 'lib' if l['library'] else 'own', b[0][0] if b else 0, b[0][-1] if b else 0, ','.join(t[0]) if t else '-')")
    set -- $info
    chapter=$1 own=$2 smallest=$3 largest=$4 tiles=$5
    blocks_small="" blocks_large=""
    [ "$largest" != 0 ] && blocks_small="--block $smallest" blocks_large="--block $largest"
    if [ "$chapter" = roofline ]; then  # random floats only
        sizes=("--size 4" "--size 4100 $blocks_small" "--size 4194332 $blocks_large")
    elif [ "$chapter" = split ]; then
        sizes=("--size 1" "--size 33 --data dense $blocks_small" "--size 1048579 --data dense $blocks_large")
    elif [ "$chapter" = gemv ]; then
        sizes=("--set m=1 --set n=1" "--set m=17 --set n=33 $blocks_small" "--set m=3 --set n=4099 $blocks_large")
    elif [ "$chapter" = softmax ]; then  # warp per row, block per row in registers, re-read
        sizes=("--set m=1 --set n=1" "--set m=3 --set n=33 --set dtype=bf16 $blocks_small"
            "--set m=7 --set n=4099 --data large $blocks_large"
            "--set m=2 --set n=40000 --set dtype=bf16 $blocks_large")
    elif [ "$chapter" = attention ]; then  # one row, odd N with the causal mask, d = 64
        sizes=("--set b=1 --set h=1 --set n=1" "--set b=1 --set h=2 --set n=17 --set mask=causal $blocks_small"
            "--set b=2 --set h=1 --set n=129 --set d=64 $blocks_large")
        memcheck_each_tile "--set b=1 --set h=3 --set n=77"
    else
        sizes=("--size 4" "--size 4100 $blocks_small" "--size 4194332 --data ones $blocks_large")
    fi
    # GEMM: odd shapes that leave partial tiles on every side (its tiles: the default).
    [ "$chapter" = gemm ] && sizes=("--set m=1 --set n=1 --set k=1"
        "--set m=17 --set n=33 --set k=65 $blocks_small" "--set m=127 --set n=129 --set k=31 $blocks_large")
    # Tensor cores: the same odd shapes, and memcheck at every tile configuration besides.
    if [ "$chapter" = tensor-cores ]; then
        sizes=("--set m=1 --set n=1 --set k=1" "--set m=17 --set n=33 --set k=65"
            "--set m=127 --set n=129 --set k=31")
        memcheck_each_tile "--set m=127 --set n=257 --set k=95"
    fi
    tools="memcheck"
    [ "$own" = own ] && tools="$tools_own"
    for tool in $tools; do
        for args in "${sizes[@]}"; do echo "$tool|$lesson|$args" >>"$san_jobs"; done
    done
done
# The jobs run SANITIZER_JOBS at a time (default 1); each writes a log of its own, joined in order.
run_san_job() {
    local n=$1 tool lesson args
    IFS='|' read -r tool lesson args <<<"$2"
    # No timing hold under the sanitizer (it would wait out its limit at every launch).
    if CUDA_LESSONS_TIMING_HOLD=0 compute-sanitizer --tool "$tool" --error-exitcode 99 "$cli" run "$lesson" $args \
            --reps 2 --no-ceilings --format csv >"$out/san.$n.log" 2>&1; then
        echo ok >"$out/san.$n.rc"
    else
        echo "sanitizer $tool lesson $lesson ($args): ERRORS" >"$out/san.$n.rc"
    fi
}
export -f run_san_job
export cli out
if [ -s "$san_jobs" ]; then
    nl -ba -w1 -s'|' "$san_jobs" | sed 's/|/ /' | while read -r n job; do printf '%s\0%s\0' "$n" "$job"; done |
        xargs -0 -n2 -P "${SANITIZER_JOBS:-1}" bash -c 'run_san_job "$1" "$2"' _
    total=$(wc -l <"$san_jobs")
    for n in $(seq "$total"); do
        cat "$out/san.$n.log" >>"$san_log" 2>/dev/null
        r=$(cat "$out/san.$n.rc" 2>/dev/null || echo "sanitizer job $n: no result")
        [ "$r" = ok ] || { san_fail=1; note "$r"; }
        rm -f "$out/san.$n.log" "$out/san.$n.rc"
    done
fi
rm -f "$san_jobs"
note "memcheck: $(grep -c 'ERROR SUMMARY: 0 errors' "$san_log") runs with 0 errors; racecheck: $(grep -c 'RACECHECK SUMMARY: 0 hazards' "$san_log") runs with 0 hazards; synccheck and others with errors: $(grep 'ERROR SUMMARY' "$san_log" | grep -vc ' 0 errors')"

# 3. An independent plain device-to-device copy of 1 GiB, for comparison with our ceiling.
step bench && python3 - <<'PY' 2>&1 | tee -a "$summary"
try:
    import torch
    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda"); a.fill_(1)
    b = torch.empty_like(a)
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for i in range(20):
        s.record(); b.copy_(a); e.record(); torch.cuda.synchronize()
        if i >= 5: times.append(s.elapsed_time(e))
    times.sort()
    ms = times[len(times) // 2]
    print(f"plain 1 GiB device copy (torch): {ms:.3f} ms, {2 * n / ms / 1e6:.0f} GB/s read+write")
except Exception as exc:
    print("plain copy check skipped:", exc)
PY

# 4. The benchmark of every chapter, and what assets/reference/ records for machines without a
#    GPU: for each GPU lesson a sweep over its block size and over each of its choices (ablation
#    toggles, tile configurations) except the data kind, then the chapter's benchmark last, so
#    that a lesson's latest recorded result is the one at its defaults. bench_args gives a
#    chapter's benchmark values (the data size for most; BENCH_ARGS_<chapter> overrides).
bench_args() {
    local var="BENCH_ARGS_${1//-/_}"
    if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
    case $1 in
        gemm | tensor-cores) echo "--set m=4096 --set n=4096 --set k=4096" ;;
        gemv) echo "--set m=8192 --set n=8192" ;;
        softmax) echo "--set m=65536 --set n=1024" ;;
        attention) echo "--set b=32 --set h=16 --set n=1024" ;;
        basics) echo "--size 256MiB" ;;
        *) echo "--size $size" ;;
    esac
}
# The further sweeps a chapter's texts quote, recorded in the same run: "lesson sweep-arguments"
# per line (its own sizes: the chapter's benchmark arguments are not added).
text_sweeps() {
    case $1 in
        softmax)
            # Issue 43's table: each GPU step at each shape, in both dtypes.
            for l in thread-per-row block-per-row row-in-registers vectorized online cluster rmsnorm \
                cudnn; do
                for shape in "m=65536 --set n=1024" "m=16384 --set n=4096" "m=1024 --set n=65536" \
                    "m=256 --set n=262144"; do
                    echo "softmax/$l --over dtype=all --set $shape"
                done
            done
            # The long rows' steps over their block size at the longest shape, where the block
            # that keeps an SM busiest decides (9.7's page, and the closing table of issue 43).
            for l in cluster rmsnorm; do
                for t in fp32 bf16; do
                    echo "softmax/$l --over block=128..1024 --set m=256 --set n=262144 --set dtype=$t"
                done
            done
            ;;
        attention)
            # Issue 44's second shape: N = 4096 at B·N = 32K, with the mask off and on.
            for l in unfused fused-simt mma-sync swizzled pipelined log2-softmax wgmma-tma \
                warp-specialized; do
                echo "attention/$l --over mask=all --set b=8 --set h=16 --set n=4096"
            done
            # 10.6's tiles at N = 4096 (its page compares the warps of 32 rows there).
            for m in none causal; do
                echo "attention/log2-softmax --over tile=all --set b=8 --set h=16 --set n=4096 --set mask=$m"
            done
            ;;
        split)
            # Lesson 1.10's toggles on dense text too (the random-text sweeps come with every
            # choice below): the output and the early exits matter where every warp has hits.
            for t in output loads pair_test exits; do
                echo "split/vector-loads-block-compaction --over $t=all --size $size --data dense"
            done
            ;;
        basics)
            for v in shared global shared-one-thread; do
                echo "basics/global-vs-shared --over rows=32..8192 --size 256MiB --set variant=$v"
            done
            echo "basics/coalescing --over stride=all --size 256MiB"
            echo "basics/coalescing --over stride=all --size 256MiB --block 1024"
            echo "basics/coalescing --over offset=0,1,2,4,8,16,32 --size 256MiB"
            for m in pinned registered pageable; do
                echo "basics/pinned-transfers --sizes 4KiB..1GiB --set memory=$m --reps 5"
            done
            ;;
        tensor-cores)
            # Lesson 8.6's tiles (its four ablations among them) at the ladder's other sizes:
            # where every persistent block does one tile, and where each does many.
            for d in 256 512 1024 2048 8192; do
                echo "tensor-cores/persistent --over tile=all --set m=$d --set n=$d --set k=$d"
            done
            ;;
    esac
}
# The further settings whose counters a chapter's texts quote, profiled in the counters step
# after the defaults: "lesson arguments" per line (the chapter's benchmark arguments are added).
# COUNTER_POINTS_<chapter> replaces a chapter's list ("-" for none).
counter_points() {
    local var="COUNTER_POINTS_${1//-/_}"
    if [ -n "${!var+x}" ]; then [ "${!var}" = - ] || echo "${!var}"; return; fi
    case $1 in
        basics)
            for v in shared global; do
                for r in 256 1024 4096; do
                    [ $v = shared ] && [ $r = 256 ] && continue   # the defaults
                    echo "basics/global-vs-shared --set variant=$v --set rows=$r"
                done
            done
            for s in 2 4 8 16 32; do echo "basics/coalescing --set stride=$s"; done
            for d in 2-way 8-way 32-way; do echo "basics/branch-divergence --set divergence=$d"; done
            ;;
        gemm)
            echo "gemm/vectorized-transposed-a --set tile=256t-128x128x16-8x8-scalar-global"
            echo "gemm/vectorized-transposed-a --set tile=256t-128x128x16-8x8-a-untransposed"
            echo "gemm/double-buffering --set tile=256t-128x256x8-w64x64-s1"
            echo "gemm/double-buffering --set tile=256t-128x256x8-w64x64-s3-lanes-rows"
            ;;
    esac
}
# The square sizes a chapter's texts quote as a ladder (LADDER_<chapter> overrides).
ladder() {
    local var="LADDER_${1//-/_}"
    if [ -n "${!var+x}" ]; then echo "${!var}"; return; fi
    case $1 in
        gemm) echo "64 128 256 512 1024 2048 4096 8192" ;;
        tensor-cores) echo "256 512 1024 2048 4096 8192" ;;
    esac
}
chapters=${CHAPTERS:-$(echo "$lessons_json" | python3 -c \
    'import json,sys; print(" ".join(dict.fromkeys(l["chapter_id"] for l in json.load(sys.stdin))))')}
rec="$out/reference"
mkdir -p "$rec"
if step bench; then
for chapter in $chapters; do
    args=$(bench_args "$chapter")
    "$cli" bench "$chapter" $args | tee -a "$out/bench.txt"
done
"$cli" bench reduce --size 4MiB | tee -a "$out/bench.txt"
# Chapter 1's targets: the 16-byte-load step on dense data, the overlapped chunks against the
# pinned copy alone.
"$cli" run split/vector-loads-block-compaction --size "$size" --data dense | tee -a "$out/bench.txt"
"$cli" run split/pinned-memory --size "$size" | tee -a "$out/bench.txt"
fi
if step sweeps; then
for chapter in $chapters; do
    args=$(bench_args "$chapter")
    parts=()
    # "lesson-id name" pairs: the block size, every choice but the data kind, and the roofline
    # step's FMA count, GPU lessons only.
    while read -r lesson name; do
        [ -n "$lesson" ] || continue
        f="$rec/$chapter-${lesson#*/}-$name.json"
        over="$name=all"
        [ "$name" = block ] && over="block=32..1024"   # doubling: 32, 64, ..., 1024
        if "$cli" sweep "$lesson" --over "$over" $args --format json >"$f" 2>>"$out/sweep.txt"; then
            parts+=("$f")
            python3 -c "import json,sys; print('$lesson over $name:', ', '.join(f\"{r['params']['$name']}: {r['median_ms']:.4g} ms\" + ('' if r['verified'] else ' WRONG') for r in json.load(open(sys.argv[1]))))" "$f" >>"$out/sweep.txt"
        else
            rm -f "$f"
            note "sweep $lesson over $name ($args): failed, see sweep.txt"
        fi
    done < <(echo "$lessons_json" | python3 -c "
import json, sys
for l in json.load(sys.stdin):
    if l['chapter_id'] != '$chapter' or l['kind'] != 'gpu': continue
    for p in l['params']:
        # fmas: the roofline step at every FMA count traces the roof.
        if p['name'] in ('block', 'fmas') or (p['type'] == 'choice' and p['name'] != 'data'):
            print(l['id'], p['name'])")
    n=0
    while read -r lesson sweep_args; do
        [ -n "$lesson" ] || continue
        n=$((n + 1))
        f="$rec/$chapter-text-$n.json"
        # shellcheck disable=SC2086 # the arguments are words
        if "$cli" sweep "$lesson" $sweep_args --format json >"$f" 2>>"$out/sweep.txt"; then
            parts+=("$f")
            echo "$lesson $sweep_args: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$f") results" >>"$out/sweep.txt"
        else
            rm -f "$f"
            note "sweep $lesson $sweep_args: failed, see sweep.txt"
        fi
    done < <(text_sweeps "$chapter")
    # The size ladder the texts quote (GEMM: m = n = k from 64 to 8192; tensor cores: from 256),
    # the chapter's benchmark at each size.
    for dim in $(ladder "$chapter"); do
        f="$rec/$chapter-ladder-$dim.json"
        if "$cli" bench "$chapter" --set m=$dim --set n=$dim --set k=$dim --format json >"$f" \
                2>>"$out/sweep.txt"; then
            parts+=("$f")
        else
            rm -f "$f"
            note "ladder $chapter at $dim: failed, see sweep.txt"
        fi
    done
    "$cli" bench "$chapter" $args --format json >"$rec/$chapter-bench.json"
    python3 - "$rec/reference-$chapter.json" "${parts[@]}" "$rec/$chapter-bench.json" <<'PY'
import json, sys
out, files = sys.argv[1], sys.argv[2:]
rows = []
for f in files:
    try:
        d = json.load(open(f))
    except ValueError as e:
        print(f"{f}: {e}", file=sys.stderr)
        continue
    rows += d if isinstance(d, list) else [d]
# One result per lesson and parameter values; a later one (the benchmark) replaces an earlier.
last = {}
for i, r in enumerate(rows):
    last[(r["id"], json.dumps(r.get("params"), sort_keys=True))] = i
keep = sorted(last.values())
json.dump([rows[i] for i in keep], open(out, "w"), indent=1)
print(f"{out}: {len(keep)} results, {sum(1 for i in keep if not rows[i].get('verified'))} not verified")
PY
    rm -f "${parts[@]}" "$rec/$chapter-bench.json"
done

# The recorded results come back as one file (the output folder takes a few files only).
tar -C "$rec" -cf "$out/reference.tar" . && rm -rf "$rec"
note "recorded results: $out/reference.tar (unpack into assets/reference/, dropping 'reference-')"
fi
# 5. Counters: every GPU lesson under ncu at its chapter's benchmark values (or COUNTER_LESSONS;
#    "none" for only the counter points), then the chapters' counter points (counter_points),
#    one list per chapter, as assets/counters/<chapter>.json; back as counters.tar. With
#    COUNTER_LESSONS=none a chapter's list holds its points only: add them to the committed file
#    rather than replacing it.
if step counters; then
    cdir="$out/counters"
    mkdir -p "$cdir"
    # profile_to FILE LESSON [ARGS...]: the lesson under ncu at its chapter's benchmark values
    # (and ARGS) into FILE, its launches or its failure in the summary.
    profile_to() {
        local f=$1 lesson=$2 chapter=${2%%/*}
        shift 2
        # shellcheck disable=SC2046 # bench_args gives words
        if timeout 600 "$cli" profile "$lesson" $(bench_args "$chapter") "$@" \
                --format json >"$f" 2>>"$out/counters.log"; then
            note "counters $lesson${*:+ $*}: $(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(len(j['kernels']), 'launches')" "$f")"
        else
            note "counters $lesson${*:+ $*}: FAILED (see counters.log)"
            rm -f "$f"
        fi
    }
    lessons_to_profile=${COUNTER_LESSONS:-$gpu_lessons}
    [ "$lessons_to_profile" = none ] && lessons_to_profile=""   # the counter points only
    for lesson in $lessons_to_profile; do
        profile_to "$cdir/${lesson%%/*}.$(echo "$lesson" | tr '/' '_').json" "$lesson"
    done
    n=0
    for chapter in $chapters; do
        while read -r lesson point_args; do
            [ -n "$lesson" ] || continue
            n=$((n + 1))
            # shellcheck disable=SC2086 # the arguments are words
            profile_to "$cdir/$chapter.point-$n.json" "$lesson" $point_args
        done < <(counter_points "$chapter")
    done
    python3 - "$cdir" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
by = {}
for f in sorted(glob.glob(os.path.join(d, "*.*.json"))):
    j = json.load(open(f))
    by.setdefault(j["id"].split("/")[0], []).append(j)
    os.remove(f)
for chapter, rows in by.items():
    json.dump(rows, open(os.path.join(d, chapter + ".json"), "w"), indent=1)
    print(f"{chapter}: {len(rows)} profiles")
PY
    tar -C "$cdir" -cf "$out/counters.tar" . && rm -rf "$cdir"
fi
note "tests: $([ $failed = 0 ] && echo all passed || echo FAILURES)"
note "sanitizer: $([ $san_fail = 0 ] && echo clean || echo ERRORS)"
cat "$summary"
