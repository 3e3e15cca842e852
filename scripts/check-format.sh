#!/usr/bin/env bash
# Fails when a C++ or CUDA file differs from the committed .clang-format (CI runs it as a test).
# Fix with: scripts/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format is not installed (scripts/install-deps.sh installs it)"; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.h' '*.cu' '*.cuh')
else
    mapfile -t files < <(find app cli engine kernels lessons tests \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \))
fi
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if [ "${1:-}" = "--fix" ]; then
    clang-format -i "${existing[@]}"
    exit 0
fi
clang-format --dry-run -Werror "${existing[@]}"
echo "format: ${#existing[@]} files match .clang-format"
