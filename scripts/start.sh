#!/usr/bin/env bash
# README's first command: install what is missing, build, start the program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
if [ -x build/app/cuda-lessons ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec build/app/cuda-lessons "$@"
fi
if [ ! -x build/app/cuda-lessons ]; then
    echo "The GUI was not built (see the configure output); here is the command-line tool instead."
else
    echo "No display (DISPLAY is not set): the GUI needs one. Here is the command-line tool instead;"
    echo "on a desktop, run build/app/cuda-lessons."
fi
exec build/cli/cuda-lessons-cli list
