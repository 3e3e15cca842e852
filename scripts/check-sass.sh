#!/usr/bin/env bash
# The 16-byte-load lessons' SASS, read from a build's kernel objects with cuobjdump (the GPU
# machine has it; this project's build machines do not, and embed the SASS recorded in
# assets/sass/sm_90.tar.xz instead, which tests/test_machine_code.cpp checks). Passes when
# split/vector-loads-block-compaction's kernel and reduce/v5-vectorized-one-pass's float4 variant
# have 128-bit global loads (LDG.E.128...) and the latter's scalar-load variant (loads=scalar)
# has none, but does load.
# Usage: scripts/check-sass.sh [BUILD_DIR] [ARCH]      (default build-gpu, sm_90)
set -u
build=${1:-build-gpu}
arch=${2:-sm_90}
objs="$build/kernels/CMakeFiles/lessons_kernels_gpu.dir"
tool=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
[ -x "$tool" ] || { echo "SKIPPED: no cuobjdump"; exit 77; }
[ -d "$objs" ] || { echo "no kernel objects in $objs: build or carry them first" >&2; exit 1; }
failed=0
# count OBJECT FUNCTION-REGEX INSTRUCTION-REGEX: instructions matching in the functions matching.
count() {
    "$tool" -sass -arch "$arch" "$objs/$1" |
        awk -v f="$2" -v i="$3" '/Function :/ { on = ($0 ~ f) } on && $0 ~ i { n++ } END { print n + 0 }'
}
expect() {  # expect WHAT N OP M
    if [ "$2" "$3" "$4" ]; then echo "ok: $1 ($2)"; else echo "FAILED: $1 ($2, expected $3 $4)"; failed=1; fi
}
wide='LDG[.A-Z0-9]*\.128'
any='LDG'
# Loads::kFloat4 is template argument 0, kScalar 1 (kernels/reduce/reduce_toggles.h).
float4='reduce_v5_vectorized_one_pass_kernelILNS0_5LoadsE0E'
scalar='reduce_v5_vectorized_one_pass_kernelILNS0_5LoadsE1E'
expect "reduce/v5-vectorized-one-pass, float4 loads: 128-bit loads" "$(count reduce/v5-vectorized-one-pass.cu.o "$float4" "$wide")" -gt 0
expect "reduce/v5-vectorized-one-pass, loads=scalar: no 128-bit loads" "$(count reduce/v5-vectorized-one-pass.cu.o "$scalar" "$wide")" -eq 0
expect "reduce/v5-vectorized-one-pass, loads=scalar: global loads" "$(count reduce/v5-vectorized-one-pass.cu.o "$scalar" "$any")" -gt 0
expect "split/vector-loads-block-compaction: 128-bit loads" "$(count split/vector-loads-block-compaction.cu.o split_vector_loads_block_compaction_kernel "$wide")" -gt 0
expect "reduce/v4-warp-shuffle (before the vector loads): no 128-bit loads" "$(count reduce/v4-warp-shuffle.cu.o reduce_v4_warp_shuffle_kernel "$wide")" -eq 0
exit $failed
