#!/usr/bin/env bash
# README's second command: install what is missing, build, run the whole test suite.
# GPU tests report "Skipped" with the reason on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600
