# Sourced by the GUI scripts (gui_page.sh, gui_walk.sh, gui_keyboard.sh, gui_parsons.sh,
# gui_classroom.sh): what they do alike. start_xvfb FIRST LAST starts Xvfb at 1600x1000 on the
# first free display number from FIRST to LAST (each script has its own range: they may run at
# once), exports DISPLAY, waits until a client connects, and ends Xvfb and the app ($app_pid,
# which the script sets while the app runs) at exit. Needs fail() (gui_prepare defines it).
start_xvfb() {
    local d
    display=""
    for d in $(seq "$1" "$2"); do
        if [ ! -e "/tmp/.X$d-lock" ] && [ ! -e "/tmp/.X11-unix/X$d" ]; then display=$d; break; fi
    done
    [ -n "$display" ] || fail "no free X display number"
    Xvfb ":$display" -screen 0 1600x1000x24 -nolisten tcp -noreset >"$out/xvfb.log" 2>&1 &
    xvfb=$!
    app_pid=""
    trap '[ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null; kill "$xvfb" 2>/dev/null' EXIT
    export DISPLAY=":$display"
    for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.05; done
    # The socket comes before the server takes clients: wait until one connects.
    for _ in $(seq 200); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.05; done
}

# gui_prepare: skips the script (exit 77) without Xvfb, xdotool or python3; defines fail(); makes
# $out afresh with the app's home, config and data folders, and hides the GPUs from the app.
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
