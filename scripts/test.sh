#!/usr/bin/env bash
# README's second command: install what is missing, build, run the whole test suite, then build
# and test the GUI against ImGui 1.90.1 as well (scripts/check-imgui190.sh; Debian 13 and
# Ubuntu 24.04 ship it, this suite's build uses the system's ImGui).
# GPU tests report "Skipped" with the reason on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
status=0
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600 || status=$?
scripts/check-imgui190.sh || status=1
exit "$status"
