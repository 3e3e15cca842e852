#!/usr/bin/env bash
# Records every hand-written kernel file's sm_90 SASS for builds whose CUDA toolkit has no
# cuobjdump (Debian's, CI's): run on a GPU machine (it has cuobjdump) over a build made on the
# build machine with -DCMAKE_CUDA_ARCHITECTURES=90 (or a list with 90), carried there with
# its objects and PTX:
#   scripts/record-sass.sh [BUILD_DIR] [OUT_FILE]     (default build-gpu, sass-sm_90.tar.xz)
# Commit OUT_FILE as assets/sass/sm_90.tar.xz. Each file of the archive, kernels/<...>.cu.sass,
# starts with "//@ " lines: the source, the SHA-256 of the PTX the object was built from (the
# build embeds the listing only where its own PTX has the same hash), the architecture and
# where and when it was recorded; then cuobjdump's listing without the instruction encodings.
set -euo pipefail
build=${1:-build-gpu}
out_file=${2:-sass-sm_90.tar.xz}
tool=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
[ -x "$tool" ] || { echo "record-sass: no cuobjdump on this machine" >&2; exit 1; }
ptx_dir="$build/lessons/CMakeFiles/lessons_catalog_ptx.dir/__"
[ -d "$ptx_dir/kernels" ] || { echo "record-sass: no PTX under $ptx_dir (build first)" >&2; exit 1; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
[ -n "$gpu" ] || gpu="no GPU named"
when=$(date -u +%Y-%m-%dT%H:%MZ)
version=$("$tool" --version | tail -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count=0
while IFS= read -r ptx; do
    rel="kernels/${ptx#"$ptx_dir"/kernels/}"
    rel="${rel%.ptx}.cu"
    obj=$(find "$build/kernels" -path "*/${rel#kernels/}.o" | head -1)
    if [ -z "$obj" ]; then
        echo "record-sass: no object for $rel" >&2
        exit 1
    fi
    mkdir -p "$tmp/$(dirname "$rel")"
    {
        echo "//@ source $rel"
        # As cmake/MachineCodeScript.cmake hashes it: without the path-derived tag of
        # anonymous-namespace symbols.
        echo "//@ ptx-sha256 $(sed -e 's/_INTERNAL_[0-9a-f]\+_/_INTERNAL_x_/g' \
            -e 's/_GLOBAL__N__[0-9a-f]\+_/_GLOBAL__N__x_/g' "$ptx" | sha256sum | cut -d' ' -f1)"
        echo "//@ arch sm_90"
        echo "//@ recorded $gpu, $when, $version"
        { "$tool" -sass -arch sm_90 "$obj" || true; } |
            sed -E 's@[[:space:]]*/\* 0x[0-9a-f]+ \*/@@' | { grep -v '^[[:space:]]*$' || true; }
    } >"$tmp/$rel.sass"
    count=$((count + 1))
done < <(find "$ptx_dir/kernels" -name '*.ptx' | sort)
tar -C "$tmp" -cJf "$out_file" kernels
echo "record-sass: $count files, $(du -h "$out_file" | cut -f1) in $out_file ($gpu, $when)"
