#!/usr/bin/env bash
# The CLI, and so the GUI's worker, under a small address-space limit (ulimit -v): it starts,
# lists, describes, shows pages and exercises, runs a CPU step and answers as a worker. cuBLAS
# and its cuBLASLt (about 600 MB of address space) are loaded on the first cuBLAS call
# (engine/cublas_loader.h), never linked: when they were, the program could not even start
# under such a limit ("list" exited 127, unable to map libcublasLt).
# Usage: cli_address_space.sh CUDA_LESSONS_CLI OUT_DIR LIMIT_KIB [STEP_KIB]
# (STEP_KIB: the step of the sweep just under the minimum, 2000 unless given)
set -u
cli=$1 out=$2 limit=$3 step=${4:-2000}
rm -rf "$out" && mkdir -p "$out/home"
export HOME="$out/home" XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data"
fail() { echo "FAILED: $*"; exit 1; }

echo "== linked: no CUDA library of more than a few MB among those the program needs"
if command -v readelf >/dev/null; then
    needed=$(readelf -d "$cli" | grep NEEDED)
    echo "$needed"
    if grep -Eiq 'cublas|cusparse|cufft|curand|cusolver|nvrtc|cudnn|nccl' <<<"$needed"; then
        fail "the CLI is linked with a large CUDA library: load it on first use instead"
    fi
    # The loader's definitions of the cuBLAS calls stay inside the program: exported, they would
    # take the place of the library's own in its calls to itself.
    exported=$(readelf --dyn-syms -W "$cli" | awk '$7 != "UND" && $8 ~ /^cublas/ {print $8}')
    [ -z "$exported" ] || fail "the CLI exports cuBLAS names: $exported"
else
    echo "(readelf is not installed: the linking is not checked)"
fi

# under NAME ARGS...: the CLI under the limit, its output in NAME.out and NAME.err; its exit code.
under() {
    local name=$1; shift
    (ulimit -v "$limit" && exec "$cli" "$@") >"$out/$name.out" 2>"$out/$name.err" </dev/null
}
# expect NAME CODE TEXT ARGS...: exit CODE, and TEXT in the output.
expect() {
    local name=$1 code=$2 text=$3; shift 3
    under "$name" "$@"
    local rc=$?
    [ "$rc" = "$code" ] || { cat "$out/$name.err"; fail "under ulimit -v $limit, '$*' exited with $rc, not $code"; }
    grep -qF -- "$text" "$out/$name.out" "$out/$name.err" ||
        { head -c 2000 "$out/$name.out"; cat "$out/$name.err"; fail "'$*': no \"$text\" in its output"; }
    echo "ok: $*"
}

# The OpenMP steps start a thread per core, each with its stack (8 MiB by default): two, so that
# the limit holds on a machine of any size.
export OMP_NUM_THREADS=2
echo "== under ulimit -v $limit (KiB)"
expect list 0 "split/naive-scan" list
expect list_json 0 '"id": "gemm/cublas-sgemm"' list --format json
expect info 0 "CPU" info
expect page 0 "cuBLAS" page 4.4
expect page_zh 0 "cuBLAS" page 5.9 --lang zh
expect exercise 0 "Signature" exercise 4.2
expect run 0 "split/naive-scan" run 1.1 --size 1MiB --reps 2
expect run_reduce 0 "reduce/cpu-sum" run 3.1 --size 1MiB --reps 2

echo "== the worker under the limit: a list and a CPU run, then the end of its input"
printf '%s\n' '{"op":"list","id":1}' '{"op":"run","id":2,"lesson":"1.1","size":"1MiB","reps":2}' |
    (ulimit -v "$limit" && exec "$cli" serve) >"$out/serve.out" 2>"$out/serve.err"
rc=$?
[ "$rc" = 0 ] || { cat "$out/serve.err"; fail "serve under ulimit -v $limit exited with $rc"; }
for id in 1 2; do
    grep -q "\"id\":$id,\"type\":\"done\",\"status\":\"ok\"" "$out/serve.out" ||
        { cut -c1-300 "$out/serve.out"; cat "$out/serve.err"; fail "serve: request $id not done ok"; }
done
echo "ok: serve"
echo "== NCCL is found without loading it (218 MB of address space): 'info' under the limit"
# Where NCCL is installed, the limit is too small to load it, and `info` must still find it.
if command -v ldconfig >/dev/null && ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2 '; then
    under info_nccl info
    if grep -q "NCCL not found" "$out/info_nccl.out"; then
        grep NCCL "$out/info_nccl.out"
        fail "info says NCCL is not found: it tried to load it rather than find its file"
    fi
    grep -q "NCCL.*found; loaded when an NCCL step runs" "$out/info_nccl.out" ||
        { grep NCCL "$out/info_nccl.out"; fail "info does not name the NCCL it found"; }
    echo "ok: info finds NCCL without loading it"
else
    echo "(no libnccl.so.2 in ldconfig's cache: not checked)"
fi

# Just under what each command needs: every command ends with a message and exit code 1
# (or 0), never an abort (134) or a crash (139). Below the floor, where even --help cannot
# start, nothing of the program runs: the kernel refuses to map it (execve fails with ENOMEM,
# then SIGSEGV) or the loader cannot map a library (exit 127); that floor is found first.
echo "== just under the minimum: a message, never an abort"
floor=""
for kib in $(seq 40000 2000 120000); do
    if (ulimit -v "$kib" && exec "$cli" --help) >/dev/null 2>&1; then floor=$kib; break; fi
done
[ -n "$floor" ] || fail "--help never started under 120 MB"
echo "the program starts (--help) under ulimit -v $floor"
# A command that has run whole (exit 0) at two limits in a row is not run again higher up: more
# room leaves it more room (the sweep ran each command at every limit, about 200 runs, 35 s of
# CPU, most of them whole runs above every command's need).
checked=0
declare -A whole=()
for kib in $(seq "$floor" "$step" $((floor + 50000))); do
    for cmd in "list" "info" "page 4.4" "page 5.9 --lang zh" "exercise 4.2" "progress" \
               "run 1.1 --size 1MiB --reps 2" "serve"; do
        [ "${whole[$cmd]:-0}" -ge 2 ] && continue
        if [ "$cmd" = serve ]; then
            printf '%s\n' '{"op":"list","id":1}' |
                (ulimit -v "$kib" && exec "$cli" serve) >"$out/low.out" 2>"$out/low.err"
            rc=$?
            ran=$rc  # whole: its list answered
            grep -q '"id":1,"type":"done","status":"ok"' "$out/low.out" || ran=1
        else
            # shellcheck disable=SC2086
            (ulimit -v "$kib" && exec "$cli" $cmd) >"$out/low.out" 2>"$out/low.err" </dev/null
            rc=$? ran=$rc
        fi
        if [ "$ran" = 0 ]; then whole[$cmd]=$((${whole[$cmd]:-0} + 1)); else whole[$cmd]=0; fi
        if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
            head -c 600 "$out/low.err"
            fail "under ulimit -v $kib, '$cmd' exited with $rc (not 0, or 1 with a message)"
        fi
        checked=$((checked + 1))
        [ "$cmd" = serve ] && continue  # its messages go to the client, in its replies
        if grep -q "terminate called\|std::bad_alloc" "$out/low.err"; then
            head -c 600 "$out/low.err"
            fail "under ulimit -v $kib, '$cmd' printed the C++ runtime's words, not a message"
        fi
        if [ "$rc" = 1 ] && ! grep -q "error\|libgomp" "$out/low.err"; then
            head -c 600 "$out/low.err"
            fail "under ulimit -v $kib, '$cmd' exited 1 without a message"
        fi
        [ "$rc" = 1 ] && grep -m1 . "$out/low.err" >>"$out/low-messages.txt"
    done
done
for cmd in "${!whole[@]}"; do
    [ "${whole[$cmd]}" -ge 1 ] || fail "'$cmd' never ran whole up to ulimit -v $((floor + 50000))"
done
echo "the messages:"
sed 's/ulimit -v [0-9]*/ulimit -v N/; s/limited to [0-9]* MiB/limited to N MiB/' \
    "$out/low-messages.txt" 2>/dev/null | sort | uniq -c
echo "ok: $checked runs from ulimit -v $floor up to $((floor + 50000)), each 0 or 1 with a message"
echo "all address-space checks passed"
