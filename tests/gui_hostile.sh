#!/usr/bin/env bash
# The GUI against hostile input, under Xvfb: empty flag values, a worker that writes JSON of the
# wrong shapes, a worker that stops reading, a window narrowed to a few pixels in Chinese, an
# imgui.ini that names a table of -5 or 100,000,000 columns, a settings.json that is a FIFO,
# /dev/zero or read-only, an address-space limit (ulimit -v) too small for OpenGL. The GUI
# must neither crash nor hang, and must close on SIGTERM.
# Usage: gui_hostile.sh CUDA_LESSONS OUT_DIR       (exit 77: skipped, no Xvfb)
set -u
app=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out/home" "$out/config/cuda-lessons"
export HOME="$out/home" XDG_CONFIG_HOME="$out/config"
config="$out/config/cuda-lessons"
fail() { echo "FAILED: $*"; exit 1; }

# Needs no display: checked even where Xvfb is missing.
echo "== empty --screenshot and --worker: exit 2 before any window"
for flag in --screenshot --worker; do
    timeout -s KILL 120 env -u DISPLAY "$app" "$flag" '' >"$out/flag.out" 2>"$out/flag.err"
    rc=$?
    [ "$rc" = 137 ] && fail "cuda-lessons $flag '' hung (killed after 120 s)"
    [ "$rc" = 2 ] || { cat "$out/flag.err"; fail "cuda-lessons $flag '' exited with $rc, not 2"; }
    grep -qF -- "$flag: empty" "$out/flag.err" || { cat "$out/flag.err"; fail "$flag '': no message"; }
done

for tool in Xvfb xdotool; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done

source "$here/gui_xvfb.sh"  # xvfb_launch
app_pid="" xvfb=""
cleanup() { [ -n "$app_pid" ] && kill -9 "$app_pid" 2>/dev/null; [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null; }
trap cleanup EXIT
xvfb_launch 1600x1000x24 "$out/xvfb.log"
xvfb=$xvfb_pid
export DISPLAY=$xvfb_display

# start LOG ARGS...: the GUI in the background, once its window is there.
start() {
    local log=$1; shift
    "$app" "$@" >"$out/$log" 2>&1 &
    app_pid=$!
    window=""
    for _ in $(seq 2400); do  # a hang guard of 120 s (a loaded machine starts it in seconds)
        window=$(xdotool search --pid "$app_pid" 2>/dev/null | head -1)
        [ -n "$window" ] && break
        kill -0 "$app_pid" 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$window" ] || { cat "$out/$log"; kill -9 "$app_pid" 2>/dev/null; wait "$app_pid"; fail "$log: no window after 120 s, or none at all (exit $?)"; }
}
# alive LOG: the GUI still runs.
alive() {
    kill -0 "$app_pid" 2>/dev/null || { cat "$out/$1"; wait "$app_pid"; fail "$1: the GUI ended with exit $?"; }
}
# close LOG: SIGTERM must end the GUI, with exit 0 (a hang guard of 120 s: it takes a few
# seconds at most, its worker's grace times included).
close() {
    kill -TERM "$app_pid"
    for _ in $(seq 2400); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.05; done
    if kill -0 "$app_pid" 2>/dev/null; then
        kill -9 "$app_pid"; app_pid=""; fail "$1: hung: the GUI was still running 120 s after SIGTERM"
    fi
    wait "$app_pid"
    local rc=$?
    app_pid=""
    [ "$rc" = 0 ] || { cat "$out/$1"; fail "$1: the GUI exited with $rc"; }
}

echo "== an address-space limit below what OpenGL needs: a message before any window, no crash"
# Mesa's software renderer needs about 800 MB here (app/main.cpp, kOpenGlAddressSpace); under
# 300-800 MB it died by SIGSEGV inside swrast_dri.so (context creation or ImGui's shaders) or
# in a thread it could not start.
for kib in 300000 500000 700000 800000; do
    (ulimit -v "$kib" && exec "$app" --lesson 1.1 --lang en --scale 1 --screenshot "$out/as.png") \
        >"$out/as.log" 2>&1
    rc=$?
    [ "$rc" = 1 ] || { cat "$out/as.log"; fail "under ulimit -v $kib the GUI exited with $rc, not 1"; }
    grep -q "the address space is limited to .* MiB (ulimit -v $kib)" "$out/as.log" ||
        { cat "$out/as.log"; fail "under ulimit -v $kib: no message about the limit"; }
done
echo "ok: 300 to 800 MB: exit 1 with the limit and what to do"

echo "== a worker that writes JSON of the wrong shapes (and an exit message of its own)"
start hostile.log --worker "$here/fake_worker_hostile.sh" --lesson 1.3 --lang en --scale 1
sleep 3
alive hostile.log
close hostile.log

echo "== a window a few pixels wide, in Chinese"
start narrow.log --lang zh --lesson 1.3 --scale 1
sleep 1
for size in "50 600" "1 1000" "20 20" "300 200"; do
    xdotool windowsize "$window" $size
    sleep 0.7
    alive narrow.log
done
close narrow.log

echo "== a worker that stops reading: the window keeps drawing and SIGTERM closes it"
start deaf.log --worker "$here/fake_worker_deaf.sh" --lesson 1.3 --lang en --scale 1
sleep 2
read -r wx wy ww wh <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} /^WIDTH=/{w=$2} /^HEIGHT=/{h=$2} END{print x, y, w, h}')"
xdotool mousemove $((wx + ww / 2)) $((wy + wh / 2))
xdotool windowfocus "$window" 2>/dev/null
# 300 presses of R (run this lesson and the previous one), each held for a frame (ImGui 1.86
# misses a press and release that arrive in one poll): far more than a pipe holds.
presses=""
for _ in $(seq 300); do presses="$presses keydown r sleep 0.02 keyup r sleep 0.01"; done
# shellcheck disable=SC2086
xdotool $presses
alive deaf.log
close deaf.log

echo "== imgui.ini tables of -5 and 100,000,000 columns"
for count in -5 2000000000 100000000; do
    printf '[Table][0xDEADBEEF,%s]\nColumn 0  Weight=1.0000\n\n' "$count" >"$config/imgui.ini"
    # The GUI itself in the background (not under `timeout`, whose own memory would be measured
    # instead), with a watchdog of its own.
    "$app" --lesson 1.1 --lang en --scale 1 --screenshot "$out/ini.png" >"$out/ini.log" 2>&1 &
    pid=$!
    # A hang guard, with no hold on this script's output: ctest reads the test's output until
    # every process that has it ends, and a guard's `sleep` left behind (its subshell killed,
    # the sleep not) kept gui_hostile_input "running" for 300 s after its last check.
    (sleep 300 & s=$!; trap 'kill "$s"; exit' TERM; wait "$s" && kill -9 "$pid") \
        </dev/null >/dev/null 2>&1 &
    watchdog=$!
    peak=0
    while kill -0 "$pid" 2>/dev/null; do
        rss=$(awk '/^VmRSS/{print $2}' "/proc/$pid/status" 2>/dev/null)
        [ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss
        sleep 0.1
    done
    wait "$pid"
    rc=$?
    kill "$watchdog" 2>/dev/null  # and its sleep (its trap)
    [ "$rc" = 137 ] && { cat "$out/ini.log"; fail "imgui.ini with $count columns: hung (killed after 300 s)"; }
    [ "$rc" = 0 ] || { cat "$out/ini.log"; fail "imgui.ini with $count columns: exit $rc"; }
    [ "$peak" -gt 10000 ] || fail "imgui.ini with $count columns: the GUI's memory was not measured"
    grep -q "column count" "$out/ini.log" || { cat "$out/ini.log"; fail "imgui.ini with $count columns: no message"; }
    echo "columns $count: peak RSS $((peak / 1024)) MiB"
    [ "$peak" -lt 700000 ] || fail "imgui.ini with $count columns took $((peak / 1024)) MiB"
done
rm -f "$config/imgui.ini"

echo "== settings.json that is a FIFO, /dev/zero, or read-only"
rm -f "$config/settings.json"
mkfifo "$config/settings.json"
timeout -s KILL 300 "$app" --lesson 1.1 --lang en --scale 1 --screenshot "$out/fifo.png" >"$out/fifo.log" 2>&1
rc=$?
[ "$rc" = 137 ] && { cat "$out/fifo.log"; fail "hung: the screenshot run (fifo) was killed after 300 s"; }
[ "$rc" = 0 ] || { cat "$out/fifo.log"; fail "settings.json as a FIFO: exit $rc"; }
[ -p "$config/settings.json" ] || fail "the FIFO settings.json was replaced"
rm -f "$config/settings.json"
ln -s /dev/zero "$config/settings.json"
timeout -s KILL 300 "$app" --lesson 1.1 --lang en --scale 1 --screenshot "$out/zero.png" >"$out/zero.log" 2>&1
rc=$?
[ "$rc" = 137 ] && { cat "$out/zero.log"; fail "hung: the screenshot run (zero) was killed after 300 s"; }
[ "$rc" = 0 ] || { cat "$out/zero.log"; fail "settings.json as /dev/zero: exit $rc"; }
rm -f "$config/settings.json"
printf '{"language": "zh", "scale": 1.5, "lesson": "split/openmp"}\n' >"$config/settings.json"
chmod 444 "$config/settings.json"
before=$(cat "$config/settings.json")
timeout -s KILL 300 "$app" --lesson 1.1 --lang en --scale 1 --screenshot "$out/ro.png" >"$out/ro.log" 2>&1
rc=$?
[ "$rc" = 137 ] && { cat "$out/ro.log"; fail "hung: the screenshot run (ro) was killed after 300 s"; }
[ "$rc" = 0 ] || { cat "$out/ro.log"; fail "read-only settings.json: exit $rc"; }
[ "$(cat "$config/settings.json")" = "$before" ] || fail "the read-only settings.json was overwritten"
[ "$(stat -c %a "$config/settings.json")" = 444 ] || fail "the read-only settings.json changed mode"
grep -q "read-only" "$out/ro.log" || { cat "$out/ro.log"; fail "no message about the read-only settings"; }
echo "all hostile GUI checks passed"
