#!/usr/bin/env bash
# Installs the Debian 12 packages CUDA Lessons builds with, where they are missing.
# The CUDA toolkit is not a Debian package here: it is expected at /usr/local/cuda (nvcc 12.x
# or 13.x); without it the build still succeeds with the CPU lessons only.
set -euo pipefail
packages=(cmake g++ make pkg-config libcli11-dev nlohmann-json3-dev libgtest-dev
          libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core fonts-wqy-microhei
          xvfb xauth xdotool clang-format)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "Installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "note: no CUDA toolkit found (/usr/local/cuda/bin/nvcc): building the CPU lessons only"
fi
