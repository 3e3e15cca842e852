#!/usr/bin/env bash
# Configures and builds into ./build (Release). Extra arguments go to CMake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
# A new build folder is made for Ninja (a folder that exists keeps its generator). Ninja starts
# a target's compiles once their own inputs exist; Make's build waits for every library a target
# links with to be linked first, which leaves cores idle on a 2-core machine.
generator=()
[ -f build/CMakeCache.txt ] || generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j"$(nproc)"
