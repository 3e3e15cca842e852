#!/usr/bin/env bash
# README's second command: install what is missing, build, run the whole test suite, with the
# GUI also built and tested against ImGui 1.90.1 (scripts/check-imgui190.sh; Debian 13 and
# Ubuntu 24.04 ship it, this suite's build uses the system's ImGui): its .deb is fetched first,
# the build compiles the app a second time against it (only what includes ImGui), and its tests
# run in the same ctest as the rest (every core busy, the GUI scripts beside: tests/CMakeLists.txt).
# Arguments go to the configure step (scripts/build.sh).
# GPU tests report "Skipped" with the reason on a machine without a GPU.
# Each phase's time is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
phases=()
phase_start=$SECONDS
phase_done() {  # phase_done NAME: the time since the last phase ended
    phases+=("$1 $((SECONDS - phase_start)) s")
    phase_start=$SECONDS
}
status=0

scripts/install-deps.sh
phase_done install

imgui=(-ULESSONS_IMGUI190_ROOT)
rc=0
scripts/check-imgui190.sh prepare || rc=$?
case "$rc" in
    0) imgui=(-DLESSONS_IMGUI190_ROOT="$PWD/build-imgui190/root") ;;
    3) ;;  # skipped, said so
    *) status=1 ;;  # said why; the rest is tested all the same
esac
phase_done "imgui-1.90.1-package"

scripts/build.sh -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${imgui[@]}" "$@"
phase_done "configure+build"

# As many "cpus" slots as cores for the tests that keep one busy, twice as many "gui" slots for
# the GUI scripts, which mostly wait for their window to draw, and as many jobs as slots: the GUI
# scripts run beside the busy tests and beside each other (tests/CMakeLists.txt).
cores=$(nproc)
printf '{"version": {"major": 1, "minor": 0}, "local": [{"cpus": [{"id": "0", "slots": %d}], "gui": [{"id": "0", "slots": %d}]}]}\n' \
    "$cores" "$((2 * cores))" >build/ctest-resources.json
ctest --test-dir build --output-on-failure -j"$((3 * cores))" --timeout 600 \
    --resource-spec-file "$PWD/build/ctest-resources.json" || status=1
phase_done ctest

if [ "$rc" = 0 ]; then
    scripts/check-imgui190.sh verify build || status=1
    # The build is left as scripts/build.sh makes it: without the 1.90.1 targets.
    cmake -S . -B build -ULESSONS_IMGUI190_ROOT >/dev/null || status=1
    phase_done "imgui-1.90.1-verify"
fi
echo "test.sh phases: ${phases[*]/%/,} total $SECONDS s"
exit "$status"
