#!/usr/bin/env bash
# README's first command: install what is missing, build, start the program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# The GUI is not built yet: until it is, the program's front door is the CLI's lesson list.
exec ./build/cli/cuda-lessons-cli list
