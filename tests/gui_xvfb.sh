# Sourced by the GUI scripts (gui_e2e.sh, gui_hostile.sh, gui_page.sh, gui_walk.sh,
# gui_keyboard.sh, gui_parsons.sh, gui_classroom.sh): what they do alike.
#
# xvfb_launch SIZE LOG: starts an Xvfb screen of SIZE (1600x1000x24) that picks its own free
# display number (-displayfd: it takes the number's lock itself, so two scripts, or two clones'
# test runs, started at the same moment never get the same display) and waits until it takes
# clients (it writes the number only then). Sets xvfb_pid and xvfb_display (":N"); LOG gets
# Xvfb's output. Fails (fail()) when Xvfb ends or says nothing within two minutes. Keys do not
# repeat on that screen.
xvfb_launch() {
    local size=$1 log=$2 number="" _
    rm -f "$log.display"
    # -r: no key autorepeat. A key the scripts hold (xdotool keydown, a sleep, keyup) repeated
    # when a loaded machine delayed the keyup past the repeat delay: one Right arrow moved the
    # walk two lessons on (gui_walk: "3.3 never arrived after 3.2 (the page shows 3.4)").
    Xvfb -displayfd 3 -screen 0 "$size" -nolisten tcp -noreset -r 3>"$log.display" >"$log" 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 2400); do
        number=$(head -1 "$log.display" 2>/dev/null)
        [[ "$number" =~ ^[0-9]+$ ]] && [ "$(wc -l <"$log.display")" -ge 1 ] && break
        number=""
        kill -0 "$xvfb_pid" 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$number" ] || { kill "$xvfb_pid" 2>/dev/null; cat "$log"; fail "Xvfb did not start (its output is above)"; }
    xvfb_display=":$number"
}

# start_xvfb: xvfb_launch's 1600x1000 screen, exported as DISPLAY, ended with the app ($app_pid,
# which the script sets while the app runs) at exit. Needs fail() (gui_prepare defines it).
start_xvfb() {
    app_pid=""
    xvfb_launch 1600x1000x24 "$out/xvfb.log"
    xvfb=$xvfb_pid
    trap '[ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null; kill "$xvfb" 2>/dev/null' EXIT
    export DISPLAY=$xvfb_display
}

# gui_prepare: skips the script (exit 77) without Xvfb, xdotool or python3; defines fail(); makes
# $out afresh with the app's home, config and data folders, and hides the GPUs from the app.
# Mesa's software renderer keeps its own drawing threads: with LP_NUM_THREADS=0 a script alone
# took about 10% less CPU (gui_page: 13.4 and 12.9 s against 14.4 and 14.6 s), but in a clean
# clone's ctest the GUI scripts, the suite's longest tests, took about a quarter longer (439 s for
# the whole ctest against 415 s, 2026-11-30).
gui_prepare() {
    local tool
    for tool in Xvfb xdotool python3; do
        command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
    done
    fail() { echo "FAILED: $*"; exit 1; }
    rm -rf "$out" && mkdir -p "$out/home" "$out/config/cuda-lessons"
    export HOME="$out/home" XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" \
        CUDA_VISIBLE_DEVICES=""
}

gui_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# drive NAME CHECKS [APP ARGS...]: starts $app with its positions file $out/NAME.json, runs the
# Python CHECKS against it with gui_drive.py's helpers (state, key, typed, click, quick_click,
# center, press_focus, tab_to, shot; d the first state, wx and wy the window's place), the
# script's own Python $helpers before them, then closes the app (which saves its settings).
# $shot_prefix starts the screenshots' names; $ready (Python, of d) is when the first state
# counts as drawn; park_mouse=False leaves the mouse where the checks put it for a screenshot.
drive() {
    local name=$1 checks=$2; shift 2
    local rects="$out/$name.json"
    local ready_py=${ready:-'d["state"]["label"] != ""'}
    rm -f "$rects"
    CUDA_LESSONS_RECTS_FILE="$rects" "$app" "$@" >"$out/app-$name.log" 2>&1 &
    app_pid=$!
    python3 - "$rects" "$app_pid" "$out" "$name" "$shot_prefix" <<PY || { tail -5 "$out/app-$name.log"; fail "$name"; }
import glob, json, os, shutil, subprocess, sys, time
sys.path.insert(0, "$gui_dir")
import gui_drive
from gui_drive import *
rects, pid, out, name = sys.argv[1:5]
gui_drive.park_mouse = ${park_mouse:-True}
d = start(sys.argv[1:], lambda d: $ready_py)
win, wx, wy = gui_drive.win, gui_drive.wx, gui_drive.wy
${helpers:-}
$checks
print("%s: %d screenshots" % (name, gui_drive.shots))
PY
    kill "$app_pid" 2>/dev/null
    wait "$app_pid" 2>/dev/null
    app_pid=""
}

# set_settings JSON: merges the object JSON into the app's settings.json before its next start.
set_settings() {
    python3 - "$out/config/cuda-lessons/settings.json" "$1" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s.update(json.loads(sys.argv[2]))
json.dump(s, open(p, "w"))
PY
}
