#!/usr/bin/env bash
# Records every hand-written kernel file's sm_90 SASS for builds whose CUDA toolkit has no
# cuobjdump (Debian's, CI's): run on a GPU machine (it has cuobjdump) over a build made on the
# build machine with -DCMAKE_CUDA_ARCHITECTURES=90 (or a list with 90), carried there with
# its objects and PTX:
#   scripts/record-sass.sh [BUILD_DIR] [OUT_FILE]     (default build-gpu, sass-sm_90.tar.xz)
# Commit OUT_FILE as assets/sass/sm_90.tar.xz. Each file of the archive, kernels/<...>.cu.sass,
# starts with "//@ " lines: the source, the SHA-256 key of the sources and compiler the object
# was built from (the build embeds the listing only where its own key is the same), the
# architecture and where and when it was recorded; then cuobjdump's listing without the instruction encodings,
# with nvdisasm's "//## File" lines before the instructions they describe where the objects
# carry line information (-lineinfo: the source<->listing links of the SASS tab).
# The Hopper-only files (their PTX in lessons_catalog_ptx90a, for compute_90a) are listed for
# sm_90a, the only architecture they are compiled for.
set -euo pipefail
build=${1:-build-gpu}
out_file=${2:-sass-sm_90.tar.xz}
tool=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
[ -x "$tool" ] || { echo "record-sass: no cuobjdump on this machine" >&2; exit 1; }
disasm=$(command -v nvdisasm || echo "$(dirname "$tool")/nvdisasm")
[ -x "$disasm" ] || { echo "record-sass: no nvdisasm: the listings carry no line information" >&2; disasm=""; }
here=$(cd "$(dirname "$0")" && pwd)
with_lines=0
ptx_dir="$build/lessons/CMakeFiles/lessons_catalog_ptx.dir/__"
ptx_dir_90a="$build/lessons/CMakeFiles/lessons_catalog_ptx90a.dir/__"
[ -d "$ptx_dir/kernels" ] || { echo "record-sass: no PTX under $ptx_dir (build first)" >&2; exit 1; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
[ -n "$gpu" ] || gpu="no GPU named"
when=$(date -u +%Y-%m-%dT%H:%MZ)
version=$("$tool" --version | tail -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The key cmake/MachineCodeScript.cmake matches a recording by (see its source_key): the
# compiler lines of the PTX's header, then every project file the PTX was compiled from (its
# .d file; their paths made relative to the checkout that built them, their contents read from
# this one, which the device tool copies from it), as "== <path>" and the content, in path order.
source_key() {
    local ptx=$1 rel=$2 dep=$1.d.kept cu prefix deps
    [ -f "$dep" ] || dep=$1.d  # the copy cmake/keep-depfile.sh keeps, or the .d (Make keeps it)
    [ -f "$dep" ] || { echo "record-sass: no $dep (the build writes one next to each PTX)" >&2; exit 1; }
    deps=$(sed -e ':a' -e 'N' -e '$!ba' -e 's/\\\n/ /g' "$dep" | sed -e '1s/^[^:]*://' |
        tr -s ' \t\r\n' '\n\n\n\n' | grep -v '^$')
    cu=$(echo "$deps" | grep -m1 -F "/$rel")
    prefix=${cu%"/$rel"}
    for what in '// Compiler Build ID' '// Cuda compilation tools' '// Based on NVVM' '.target '; do
        line=$(grep -m1 -F "$what" "$ptx" || true)
        printf '%s\n' "$line"
    done >"$tmp/key"
    echo "$deps" | while IFS= read -r d; do
        case $d in "$prefix"/*) echo "${d#"$prefix"/}" ;; esac
    done | LC_ALL=C sort -u | while IFS= read -r r; do
        printf '== %s\n' "$r"
        cat "$r"
    done >>"$tmp/key"
    sha256sum <"$tmp/key" | cut -d' ' -f1
}
count=0
while IFS= read -r ptx; do
    arch=sm_90
    case $ptx in "$ptx_dir_90a"/*) arch=sm_90a ;; esac
    rel="kernels/${ptx#*/__/kernels/}"
    rel="${rel%.ptx}.cu"
    obj=$(find "$build/kernels" -path "*/${rel#kernels/}.o" | head -1)
    if [ -z "$obj" ]; then
        echo "record-sass: no object for $rel" >&2
        exit 1
    fi
    mkdir -p "$tmp/$(dirname "$rel")"
    key=$(source_key "$ptx" "$rel")
    { "$tool" -sass -arch "$arch" "$obj" || true; } >"$tmp/listing"
    # The line information (objects built with -lineinfo, as cmake/MachineCode.cmake asks):
    # nvdisasm -gi (-g on an older one) of the object's cubin, its "//## File" lines put into
    # cuobjdump's listing (scripts/sass-line-info.py). Without nvdisasm, or an object without
    # line information, the listing is cuobjdump's alone.
    lines_from=""
    if [ -n "$disasm" ]; then
        rm -rf "$tmp/elf" && mkdir "$tmp/elf"
        obj_abs=$(cd "$(dirname "$obj")" && pwd)/$(basename "$obj")
        if (cd "$tmp/elf" && "$tool" -arch "$arch" -xelf all "$obj_abs" >/dev/null 2>&1); then
            : >"$tmp/nvdisasm"
            for cubin in "$tmp"/elf/*.cubin; do
                [ -f "$cubin" ] || continue
                "$disasm" -gi "$cubin" >>"$tmp/nvdisasm" 2>/dev/null ||
                    "$disasm" -g "$cubin" >>"$tmp/nvdisasm" 2>/dev/null || true
            done
            if grep -q '//## File' "$tmp/nvdisasm"; then
                python3 "$here/sass-line-info.py" "$tmp/listing" "$tmp/nvdisasm" >"$tmp/merged"
                mv "$tmp/merged" "$tmp/listing"
                lines_from=", line information by $(basename "$disasm") -gi"
                with_lines=$((with_lines + 1))
            fi
        fi
    fi
    {
        echo "//@ source $rel"
        echo "//@ source-sha256 $key"
        echo "//@ arch $arch"
        echo "//@ recorded $gpu, $when, $version$lines_from"
        sed -E 's@[[:space:]]*/\* 0x[0-9a-f]+ \*/@@' "$tmp/listing" | { grep -v '^[[:space:]]*$' || true; }
    } >"$tmp/$rel.sass"
    count=$((count + 1))
done < <(find "$ptx_dir/kernels" -name '*.ptx' | sort
         [ -d "$ptx_dir_90a/kernels" ] && find "$ptx_dir_90a/kernels" -name '*.ptx' | sort)
tar -C "$tmp" -cJf "$out_file" kernels
echo "record-sass: $count files ($with_lines with line information), $(du -h "$out_file" | cut -f1) in $out_file ($gpu, $when)"
