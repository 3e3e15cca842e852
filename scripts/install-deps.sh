#!/usr/bin/env bash
# Installs the packages CUDA Lessons builds with, where they are missing, on Debian 12 and 13
# and Ubuntu 22.04 and 24.04 (read from /etc/os-release). The package names are the same on all
# four; what differs is said below and in README.md. A package the distribution does not have
# stops this script with its name, before anything is installed.
# The CUDA toolkit is not a distribution package here: it is expected at /usr/local/cuda (nvcc
# 12.x or 13.x); without it the build still succeeds with the CPU lessons only.
set -euo pipefail
packages=(cmake g++ make ninja-build pkg-config libcli11-dev nlohmann-json3-dev libgtest-dev
          libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core fonts-wqy-microhei
          xvfb xauth xdotool clang-format curl python3)
cmake_needed=3.25  # cmake_minimum_required in CMakeLists.txt

fail() {
    echo "install-deps: $*" >&2
    exit 1
}
id="" version="" codename="" pretty="this system"
os_release=${LESSONS_OS_RELEASE:-/etc/os-release}  # another file only in tests
if [ -r "$os_release" ]; then
    # shellcheck disable=SC1090
    . "$os_release"
    id=${ID:-} version=${VERSION_ID:-} pretty=${PRETTY_NAME:-$pretty}
    codename=${VERSION_CODENAME:-}
fi
ubuntu=false
case "$id:$version" in
    debian:12 | debian:13) ;;
    ubuntu:24.04) ubuntu=true ;;
    ubuntu:22.04)
        ubuntu=true
        # Its libimgui-dev is 1.86, as Debian 12's; its cmake (3.22) is too old, checked below.
        ;;
    *)
        command -v apt-get >/dev/null ||
            fail "$pretty is not Debian or Ubuntu (no apt-get). Install the equivalents of" \
                "these Debian packages, then run scripts/build.sh: ${packages[*]}"
        echo "install-deps: $pretty is not one of Debian 12, Debian 13, Ubuntu 22.04, Ubuntu" \
            "24.04: trying their package names (untried here)"
        ;;
esac

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "Installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    # Every missing package must have a candidate in the configured archives, or none is installed.
    unavailable=()
    for p in "${missing[@]}"; do
        candidate=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')
        [ -n "$candidate" ] && [ "$candidate" != "(none)" ] || unavailable+=("$p")
    done
    if ((${#unavailable[@]})); then
        hint=""
        if $ubuntu; then
            hint=" On Ubuntu several of them (libimgui-dev and libcli11-dev among them) are in"
            hint+=" the 'universe' component: enable it with 'sudo add-apt-repository universe',"
            hint+=" then run this again."
        fi
        fail "$pretty${codename:+ ($codename)} has no package named: ${unavailable[*]}.$hint"
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The distribution's cmake must be new enough (Ubuntu 22.04 has 3.22).
have=$(cmake --version | awk 'NR == 1 {print $3}')
if [ "$(printf '%s\n%s\n' "$cmake_needed" "$have" | sort -V | head -1)" != "$cmake_needed" ]; then
    fail "cmake $have is installed; CUDA Lessons needs $cmake_needed or newer. Ubuntu 22.04's" \
        "package is 3.22: install a newer one ('pip install --user cmake', 'snap install cmake" \
        "--classic' or Kitware's APT repository), make it first on PATH, then run this again."
fi

if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "note: no CUDA toolkit found (/usr/local/cuda/bin/nvcc): building the CPU lessons only"
fi
