#!/usr/bin/env bash
# CI: the GUI and the app tests built and run against ImGui 1.90.1, the version Debian 13 and
# Ubuntu 24.04 ship, while this machine (Debian 12) has 1.86. Debian 13's libimgui-dev .deb is
# downloaded once (kept in build-imgui190/ for the next run), checked against its SHA-256 and
# unpacked into build-imgui190/root: it is never installed. The build is configured with
# LESSONS_IMGUI190_ROOT naming that root (cmake/ImGui190.cmake): only what includes ImGui is
# compiled again against it (the app, its backends, the gui-logic tests), beside the build's own
# engine, catalogue and CLI (the GUI's worker, with CUDA where the build has it); their tests
# carry the label imgui190 (the prefix "imgui190:") and run in the same ctest as the rest.
# Offline, this check fails; LESSONS_SKIP_IMGUI190=1 skips it, saying so.
# Usage: scripts/check-imgui190.sh prepare     the .deb downloaded and unpacked (scripts/test.sh
#                                               then configures with
#                                               -DLESSONS_IMGUI190_ROOT=$PWD/build-imgui190/root)
#        scripts/check-imgui190.sh verify BUILD every file of the imgui190 targets compiled
#                                               against the unpacked headers, none against the
#                                               system's; both GUIs carry 1.90.1; the tests there
#        scripts/check-imgui190.sh [BUILD]      all of it alone (BUILD: build): prepare,
#                                               configure, build the imgui190 targets, run their
#                                               tests, verify, and configure BUILD without them
#                                               again
# Exit status of prepare: 0 ready, 3 skipped (LESSONS_SKIP_IMGUI190=1), 1 failed.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
if [ "${LESSONS_SKIP_IMGUI190:-}" = 1 ]; then
    echo "imgui 1.90 check: SKIPPED (LESSONS_SKIP_IMGUI190=1): the GUI was not built against 1.90.1"
    [ "${1:-}" = prepare ] && exit 3
    exit 0
fi
fail() {
    echo "imgui 1.90 check: FAILED: $*" >&2
    exit 1
}

prepare() {
    version=1.90.1+ds-1
    arch=$(dpkg --print-architecture 2>/dev/null || echo unknown)
    [ "$arch" = amd64 ] || fail "only the amd64 .deb is known here (this machine is $arch);" \
        "set LESSONS_SKIP_IMGUI190=1 to skip this check"
    deb=libimgui-dev_${version}_amd64.deb
    sha256=31e8b9f8df979bde30072cbe3bea3dbaa9025d9d82b0d6bc8474184224053874
    url=http://deb.debian.org/debian/pool/main/i/imgui/$deb
    dir=build-imgui190
    root=$dir/root
    mkdir -p "$dir"

    # 1. The .deb: downloaded once, checked every time.
    if [ ! -f "$dir/$deb" ] || ! echo "$sha256  $dir/$deb" | sha256sum --check --status; then
        rm -f "$dir/$deb.part"
        echo "imgui 1.90 check: downloading $url"
        why="no network, or the archive no longer has this version (then update version and"
        why+=" sha256 here); set LESSONS_SKIP_IMGUI190=1 to skip this check"
        if command -v curl >/dev/null; then
            curl -fsSL --retry 2 --connect-timeout 20 --max-time 300 -o "$dir/$deb.part" "$url" ||
                fail "could not download $url ($why)"
        elif command -v wget >/dev/null; then
            wget -q --tries=2 --timeout=60 -O "$dir/$deb.part" "$url" ||
                fail "could not download $url ($why)"
        else
            fail "neither curl nor wget is installed: cannot download $url"
        fi
        echo "$sha256  $dir/$deb.part" | sha256sum --check --status ||
            fail "$deb does not have the expected SHA-256 ($sha256)"
        mv "$dir/$deb.part" "$dir/$deb"
    fi

    # 2. Unpacked into the private root; its pkg-config file is pointed at that root.
    if [ ! -f "$root/.unpacked-$version" ]; then
        rm -rf "$root"
        mkdir -p "$root"
        dpkg-deb -x "$dir/$deb" "$root"
        touch "$root/.unpacked-$version"
    fi
    pcdir=$root/usr/lib/x86_64-linux-gnu/pkgconfig
    abs_root=$(cd "$root" && pwd)
    sed -i "s|^prefix=.*|prefix=$abs_root/usr|" "$pcdir/imgui.pc"
    grep -q '^Version: 1.90.1$' "$pcdir/imgui.pc" || fail "$pcdir/imgui.pc is not version 1.90.1"
}

verify() {  # verify BUILD
    local build=$1 commands=$1/compile_commands.json
    [ -f "$commands" ] || fail "$commands is missing (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"
    python3 - "$commands" "$abs_root" <<'PY' || fail "the imgui190 targets' compile commands (above)"
import json, re, sys
commands, root = sys.argv[1:3]
mine = re.compile(r"(-I|-isystem )" + re.escape(root) + r"/usr/include/imgui( |/backends|\"|$)")
system = re.compile(r"(-I|-isystem )/usr/include/imgui( |/backends|\"|$)")
n = bad = 0
for e in json.load(open(commands)):
    out = e.get("output", "") + " " + e["command"]
    if not re.search(r"imgui190(-lib|-objects)?\.dir/", out):
        if mine.search(e["command"]):
            print("a target of the build's own ImGui names the unpacked one:", e["file"]); bad += 1
        continue
    n += 1
    if not mine.search(e["command"]):
        print("not compiled against %s/usr/include/imgui: %s" % (root, e["file"])); bad += 1
    if system.search(e["command"]):
        print("compiled against the system's /usr/include/imgui: %s" % e["file"]); bad += 1
print("imgui 1.90 check: %d files compiled against %s/usr/include/imgui, none against the system's" % (n, root))
sys.exit(1 if bad or n < 40 else 0)
PY
    local gui
    for gui in "$build/app-imgui190/cuda-lessons" "$build/app-imgui190-lib/cuda-lessons"; do
        [ -x "$gui" ] || fail "$gui was not built"
        grep -qaxF 1.90.1 <(strings "$gui") || fail "$gui does not carry ImGui's version string 1.90.1"
    done
    local listed
    listed=$(ctest --test-dir "$build" -N -R '^imgui190:' | grep -cE 'Test +#') || true
    [ "$listed" -gt 100 ] || fail "only $listed tests named imgui190:... in $build"
    echo "imgui 1.90 check: $listed tests against ImGui $version registered (imgui190:...)"
}

case "${1:-}" in
    prepare)
        prepare
        ;;
    verify)
        [ -n "${2:-}" ] || fail "usage: scripts/check-imgui190.sh verify BUILD"
        prepare
        verify "$2"
        ;;
    *)
        build=${1:-build}
        prepare
        cmake -S . -B "$build" -DLESSONS_IMGUI190_ROOT="$abs_root" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
            >"$dir/configure.log" || { cat "$dir/configure.log"; fail "configure failed"; }
        status=0
        # "... name" (Make's help) or "name: phony" (Ninja's)
        targets=$(cmake --build "$build" --target help |
            sed -n -e 's/^\.\.\. \([^ ]*\).*/\1/p' -e 's/^\([^ :]*\): phony$/\1/p' |
            grep imgui190 | tr '\n' ' ')
        # shellcheck disable=SC2086
        cmake --build "$build" -j"$(nproc)" --target $targets || status=1
        if [ "$status" = 0 ]; then
            ctest --test-dir "$build" -R '^imgui190:' --output-on-failure -j"$(nproc)" --timeout 600 || status=1
            verify "$build" || status=1
        fi
        cmake -S . -B "$build" -ULESSONS_IMGUI190_ROOT >/dev/null || status=1
        [ "$status" = 0 ] || fail "app tests failed against ImGui $version"
        echo "imgui 1.90 check: passed in $((SECONDS - start)) s (build and tests against ImGui $version)"
        ;;
esac
