#!/usr/bin/env bash
# End to end under Xvfb: the real cuda-lessons with the real worker (cuda-lessons-cli serve).
# Lessons are named as a person or a script does: by label (1.3), by id (split/openmp) or by
# their old global number (3).
#  1. the OpenMP lesson (1.3) run live and screenshotted, in English at scale 1 and in Chinese
#     at scales 1.5 (charts in view) and 2 (the controls take more rows and push the charts
#     below the fold);
#  2. a person's session with xdotool: click that lesson, drag the thread-count slider, let
#     auto-run measure, press F12 for a screenshot;
#  3. the first GPU reduction (3.2) at 1 GiB: its "Predict, then measure" box, then a click on
#     the chapter summary and on 中文, with a screenshot of each language;
#  4. the responsiveness while lesson 3.1 runs on every core (the GUI keeps drawing, its worker
#     below the GUI's priority; the mean frame time is printed, not judged: a shared machine's
#     load decides it);
#  5. an exercise (4.2): a line typed into the editor and compiled, its error marked on its
#     line; the file fixed by "my editor" (CUDA_LESSONS_EDITOR) read again and compiled; the
#     text kept after the GUI is killed; in English, then Chinese;
#  6. presenter mode on a 1280x720 screen at scale 2: F5 hides the lesson list and the code,
#     the step chart takes most of the height, the arrows step through the text's sections, a
#     tooltip at the window's right edge stays inside it, in English and Chinese; F5 again
#     brings the panes back; the roofline page in presenter mode there: no roof label over a
#     point or another, its legend inside the pane, in English and Chinese;
#  6. without a GPU (CUDA_VISIBLE_DEVICES emptied): "Sweep block sizes" on lesson 1.4 shows the
#     sweep recorded on the reference GPU (the H200, the default "Recorded on"), labelled;
#  7. with a stand-in GPU worker (fake_worker_gpu.py): the roofline's "Sweep FMAs per element"
#     asks for the sweep over fmas 2 to 4096 and traces its live points.
# Every PNG is checked by png_check (size, not blank, the bars' colours present).
# Usage: gui_e2e.sh CUDA_LESSONS PNG_CHECK OUT_DIR       (exit 77: skipped, no Xvfb)
set -u
app=$1 png_check=$2 out=$3
for tool in Xvfb xdotool; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done
rm -rf "$out" && mkdir -p "$out/home" "$out/config"
export HOME="$out/home" XDG_CONFIG_HOME="$out/config"

echo "== bad flags: exit 2 with a message (no display needed: they are refused before the window)"
bad_flag() {  # bad_flag "MESSAGE PART" ARGS...
    local want=$1; shift
    env -u DISPLAY -u WAYLAND_DISPLAY "$app" "$@" >"$out/flag.out" 2>"$out/flag.err"
    local rc=$?
    [ "$rc" = 2 ] || { cat "$out/flag.err"; echo "FAILED: cuda-lessons $* exited with $rc, not 2"; exit 1; }
    grep -qF -- "$want" "$out/flag.err" || { cat "$out/flag.err"; echo "FAILED: cuda-lessons $*: no '$want'"; exit 1; }
}
bad_flag "--bogus" --bogus
bad_flag "extra" extra
bad_flag "--lesson" --lesson abc
bad_flag "--scale" --scale
bad_flag "0.5 to 4" --scale 9
bad_flag "0.5 to 4" --scale nan
bad_flag "0.5 to 4" --scale inf
bad_flag "no lesson 999" --lesson 999
bad_flag "no lesson 0" --lesson 0
bad_flag "no lesson 9.99" --lesson 9.99
bad_flag "no lesson split/no-such-step" --lesson split/no-such-step
bad_flag "--lesson" --lesson ''
bad_flag "en or zh" --lang fr
bad_flag "en or zh" --lang ""
bad_flag "--size" --size ''
bad_flag "--size" --size 12parsecs
env -u DISPLAY "$app" --help >"$out/help.txt" 2>&1 || fail "--help exited with $?"
grep -q -- "--screenshot" "$out/help.txt" || fail "--help does not list the flags"
grep -q -- "5.8" "$out/help.txt" || fail "--help does not say how a lesson is named"

fail() { echo "FAILED: $*"; exit 1; }
source "$(dirname "$0")/gui_xvfb.sh"  # xvfb_launch
app_pid="" xvfb="" xvfb720=""
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null
    [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
    [ -n "$xvfb720" ] && kill "$xvfb720" 2>/dev/null
}
trap cleanup EXIT
xvfb_launch 1600x1000x24 "$out/xvfb.log"
xvfb=$xvfb_pid display=$xvfb_display  # ":N"
export DISPLAY=$display
bars=(--color 80,160,255 --color 70,200,170)  # this lesson's and the previous lesson's bars

echo "== screenshot, English, scale 1 (the lesson named by its label)"
"$app" --lesson 1.3 --run --size 8MiB --lang en --scale 1 --screenshot "$out/lesson3-en-1x.png" || fail "cuda-lessons exited with $?"
"$png_check" "$out/lesson3-en-1x.png" --min 1200x800 "${bars[@]}" || fail "English screenshot"
echo "== screenshot, Chinese, scales 1.5 (by id) and 2 (by its old number)"
"$app" --lesson split/openmp --run --size 8MiB --lang zh --scale 1.5 --screenshot "$out/lesson3-zh-1.5x.png" || fail "cuda-lessons exited with $?"
"$png_check" "$out/lesson3-zh-1.5x.png" --min 1200x800 "${bars[@]}" || fail "Chinese screenshot"
"$app" --lesson split/openmp --run --size 8MiB --lang zh --scale 2 --screenshot "$out/lesson3-zh-2x.png" || fail "cuda-lessons exited with $?"
"$png_check" "$out/lesson3-zh-2x.png" --min 1200x800 --color 80,160,255 || fail "Chinese screenshot at 2x"
grep -q '"language": "zh"' "$out/config/cuda-lessons/settings.json" || fail "language not remembered"
grep -q '"lesson": "split/openmp"' "$out/config/cuda-lessons/settings.json" || fail "the lesson is not stored by its id: $(cat "$out/config/cuda-lessons/settings.json")"

echo "== the roofline page and the machine-code tabs, in English and Chinese"
# has NAME FILE: the rectangle NAME was drawn in the last frame; state KEY FILE: a state value.
has() { python3 -c "import json,sys; sys.exit(0 if '$1' in json.load(open('$2')) else 1)"; }
state() { python3 -c "import json; print(json.load(open('$2'))['state']['$1'])"; }
for lang in en zh; do
    CUDA_LESSONS_RECTS_FILE="$out/roofline-$lang.json" "$app" --lesson roofline/roofline --lang $lang --scale 1 \
        --screenshot "$out/roofline-$lang.png" || fail "cuda-lessons exited with $?"
    "$png_check" "$out/roofline-$lang.png" --min 1200x800 || fail "roofline screenshot ($lang)"
    for r in roofline_chart measure_ceilings bench_chapter run_benchmark ncu_copy; do
        has $r "$out/roofline-$lang.json" || fail "the roofline page ($lang) has no $r"
    done
    CUDA_LESSONS_RECTS_FILE="$out/sass-$lang.json" "$app" --lesson reduce/v5-vectorized-one-pass --lang $lang --scale 1 \
        --code-tab sass --screenshot "$out/lesson25-sass-$lang.png" || fail "cuda-lessons exited with $?"
    "$png_check" "$out/lesson25-sass-$lang.png" --min 1200x800 || fail "SASS tab screenshot ($lang)"
    [ "$(state code_tab "$out/sass-$lang.json")" = 2 ] || fail "--code-tab sass did not open the SASS tab"
    has roofline_section "$out/sass-$lang.json" || fail "the vectorized reduction ($lang) has no roofline section"
    CUDA_LESSONS_RECTS_FILE="$out/ptx-$lang.json" "$app" --lesson reduce/v5-vectorized-one-pass --lang $lang --scale 1 \
        --code-tab ptx --screenshot "$out/lesson25-ptx-$lang.png" || fail "cuda-lessons exited with $?"
    [ "$(state code_tab "$out/ptx-$lang.json")" = 1 ] || fail "--code-tab ptx did not open the PTX tab"
    if has tab_ptx "$out/ptx-$lang.json" && [ "$(state listing_lines "$out/ptx-$lang.json")" -gt 100 ]; then
        # A build with CUDA: the vectorized reduction's PTX is listed, its 16-byte loads counted and
        # highlighted.
        has count_LDG.128 "$out/ptx-$lang.json" || fail "no LDG.128 count on the vectorized reduction's PTX tab"
        "$png_check" "$out/lesson25-ptx-$lang.png" --min 1200x800 || fail "PTX tab screenshot ($lang)"
    fi
done

echo "== cuBLAS TF32 without a GPU: the ceilings named are the recorded GPU's own (assets/info)"
# Without a GPU the prediction box reads the device information recorded with the reference
# GPU's results (the H200's, the default "Recorded on": assets/info/h200.json): its fp32 and TF32
# ceilings, named as recorded on that GPU.
CUDA_LESSONS_RECTS_FILE="$out/cublas-tf32.json" "$app" --lesson gemm/cublas-tf32 --lang en --scale 1 \
    --screenshot "$out/cublas-tf32.png" || fail "cuda-lessons exited with $?"
python3 - "$out/cublas-tf32.json" "$(dirname "$0")/../assets/info/h200.json" <<'PY' || fail "the cuBLAS TF32 step's prediction"
import json, sys
lines = json.load(open(sys.argv[1]))["state"]["prediction"]
if not any(l.startswith("No GPU here") for l in lines):
    sys.exit(0)  # a GPU machine: the worker's own ceilings are named
info = json.load(open(sys.argv[2]))
device = info["devices"][0]
fp32, tf32 = device["ceilings"]["fp32_gflops"], device["ceilings"]["tf32_gflops"]
line = next(l for l in lines if l.startswith("No GPU here"))
if "fp32 %.0f GFLOP/s" % fp32 not in line:
    sys.exit("expected fp32 %.0f GFLOP/s in: %s" % (fp32, line))
if "on %s on %s" % (device["name"], info["recorded_at"][:10]) not in line:
    sys.exit("expected the ceilings named as recorded on %s in: %s" % (device["name"], line))
if not any(l.startswith("TF32 ceiling: %.0f GFLOP/s" % tf32) for l in lines):
    sys.exit("expected the recorded TF32 ceiling %.0f GFLOP/s in: %s" % (tf32, lines))
PY

echo "== a bloated imgui.ini is not loaded nor saved back; a saved window larger than the screen is clamped"
python3 -c "
import sys
with open('$out/config/cuda-lessons/imgui.ini', 'w') as f:
    for i in range(20000):
        f.write('[Window][Bloat %d]\\nPos=60,60\\nSize=400,400\\nCollapsed=0\\n\\n' % i)
"
python3 -c "
import json
p = '$out/config/cuda-lessons/settings.json'
s = json.load(open(p)); s['window_width'] = 4000; s['window_height'] = 3000; json.dump(s, open(p, 'w'))
"
"$app" --lesson 1.3 --lang en --scale 1 --screenshot "$out/clamped.png" >"$out/bloat.log" 2>&1 || { cat "$out/bloat.log"; fail "cuda-lessons exited with $?"; }
ini_bytes=$(wc -c <"$out/config/cuda-lessons/imgui.ini")
[ "$ini_bytes" -lt 65536 ] || fail "imgui.ini was saved back with $ini_bytes bytes"
python3 -c "
import json, sys
s = json.load(open('$out/config/cuda-lessons/settings.json'))
sys.exit(0 if s['window_width'] <= 1600 and s['window_height'] <= 1000 else 1)" || fail "window not clamped to the screen: $(cat "$out/config/cuda-lessons/settings.json")"
"$png_check" "$out/clamped.png" --min 640x400 >/dev/null || fail "screenshot of the clamped window"

echo "== --screenshot on a full disk (a 16 KiB file size limit): exit 1, the path and the reason"
mkdir -p "$out/full"
(trap '' XFSZ; ulimit -f 16; exec "$app" --lesson 1.1 --lang en --scale 1 --screenshot "$out/full/shot.png") >"$out/full.log" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$out/full.log"; fail "--screenshot on a full disk exited with $rc, not 1"; }
grep -q "screenshot failed: cannot write '$out/full/shot.png': File too large" "$out/full.log" || { cat "$out/full.log"; fail "no message with the path and the reason"; }
[ -z "$(ls -A "$out/full")" ] || fail "a cut screenshot was left behind: $(ls -A "$out/full")"

echo "== closing with a worker that ignores shutdown, end of input and SIGTERM"
here=$(cd "$(dirname "$0")" && pwd)
FAKE_WORKER_PID_FILE="$out/stubborn.pid" CUDA_LESSONS_RECTS_FILE="$out/stubborn-rects.json" \
    "$app" --worker "$here/fake_worker_stubborn.sh" --lang en --scale 1 >"$out/stubborn.log" 2>&1 &
app_pid=$!
for _ in $(seq 1200); do [ -s "$out/stubborn.pid" ] && [ -s "$out/stubborn-rects.json" ] && break; sleep 0.05; done
[ -s "$out/stubborn.pid" ] || fail "the stubborn worker never started"
worker_pid=$(cat "$out/stubborn.pid")
start=$(date +%s%N)
kill -TERM "$app_pid"  # as the window's close button: the GUI closes, then ends its worker
# It ends its worker (shutdown, end of input, SIGTERM, then SIGKILL, each after a short grace)
# and exits. How long that takes is printed, not judged (a loaded machine decides it); a GUI
# still running after two minutes waits for its worker forever.
for _ in $(seq 2400); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$app_pid" 2>/dev/null; then
    kill -9 "$app_pid" "$worker_pid"; fail "the GUI was still running 120 s after it was closed"
fi
wait "$app_pid"; app_pid=""
took=$((($(date +%s%N) - start) / 1000000))
echo "closed in $took ms (printed, not judged)"
kill -0 "$worker_pid" 2>/dev/null && { kill -9 "$worker_pid"; fail "the worker outlived the GUI"; }

echo "== a session driven by mouse and keyboard"
rects="$out/rects.json"
CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 1.1 --size 8MiB --lang en --scale 1 >"$out/app.log" 2>&1 &
app_pid=$!
# field NAME: a control's rectangle "x0 y0 x1 y1"; field state.NAME: the app's state value;
# field state.params.NAME: a parameter's value on the page.
field() {
    python3 -c "
import json
d = json.load(open('$rects'))
key = '$1'
if key.startswith('state.params.'):
    v = d.get('state', {}).get('params', {}).get(key[13:])
else:
    v = d.get('state', {}).get(key[6:]) if key.startswith('state.') else d.get(key)
print('' if v is None else ' '.join(str(int(x)) for x in v) if isinstance(v, list) else v)" 2>/dev/null
}
wait_for() {  # wait_for FIELD VALUE-TEST, for up to a minute (CI machines are busy)
    for _ in $(seq 1200); do
        v=$(field "$1")
        if [ -n "$v" ] && eval "$2"; then return 0; fi
        sleep 0.05
    done
    return 1
}
wait_for lesson_split/openmp 'true' || fail "the window never drew its lesson list"
window=$(xdotool search --sync --pid "$app_pid" | head -1)
read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
center() { read -r x0 y0 x1 y1 <<<"$(field "$1")"; echo $((wx + (x0 + x1) / 2)) $((wy + (y0 + y1) / 2)); }
# f12 WHAT: F12 (pressed and released at once: the app gives each a frame), then the path of the
# screenshot it wrote into the exports folder; none: a message naming WHAT, and status 1.
f12() {
    xdotool key F12
    for _ in $(seq 2400); do ls "$HOME"/cuda-lessons-exports/*.png >/dev/null 2>&1 && break; sleep 0.05; done
    local shot; shot=$(ls "$HOME"/cuda-lessons-exports/*.png 2>/dev/null | head -1)
    # In $(...): the message goes to standard error, the caller exits.
    [ -n "$shot" ] || { echo "FAILED: F12 wrote no screenshot of $1" >&2; return 1; }
    sleep 0.2
    echo "$shot"
}

read -r cx cy <<<"$(center lesson_split/openmp)"
xdotool mousemove "$cx" "$cy" click 1
wait_for state.lesson '[ "$v" = split/openmp ]' || fail "clicking the OpenMP lesson did not select it"
wait_for state.label '[ "$v" = 1.3 ]' || fail "the OpenMP lesson is not shown as 1.3"
wait_for threads 'true' || fail "no thread-count slider on the OpenMP lesson"
before=$(field state.params.threads)
read -r x0 y0 x1 y1 <<<"$(field threads)"
y=$((wy + (y0 + y1) / 2))
xdotool mousemove $((wx + x0 + 3)) "$y" mousedown 1
for step in 1 2 3 4 5 6; do xdotool mousemove $((wx + x0 + (x1 - x0) * step / 6 - 3)) "$y"; sleep 0.05; done
xdotool mouseup 1
wait_for state.params.threads '[ "$v" != "'"$before"'" ]' || fail "dragging the slider did not change the thread count"
wait_for state.results '[ "$v" -ge 2 ]' || fail "auto-run did not measure lessons 1.2 and 1.3"
wait_for state.busy '[ "$v" = False ]' || fail "the runs did not finish"
shot=$(f12 "the session") || exit 1
"$png_check" "$shot" --min 1200x800 "${bars[@]}" || fail "F12 screenshot"
cp "$shot" "$out/session-f12.png"
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""

echo "== predict, then measure, and the chapter summary, in English then Chinese (clicked)"
rm -f "$HOME"/cuda-lessons-exports/*.png "$rects"
CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 20 --size 1GiB --lang en --scale 1 >"$out/summary.log" 2>&1 &
app_pid=$!
wait_for state.label '[ "$v" = 3.2 ]' || fail "--lesson 20 (an old number) did not open lesson 3.2"
wait_for prediction 'true' || fail "lesson 3.2's page has no prediction box"
wait_for state.prediction_lines '[ "$v" -ge 4 ]' || fail "the prediction box has $(field state.prediction_lines) lines, not 4 or more"
window=$(xdotool search --sync --pid "$app_pid" | head -1)
read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
# The header may lie below the pane's visible end (ImGui 1.90's rows are a little taller, and
# the status bar covers the window's last lines): scroll the pane until it is well inside.
wh=$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^HEIGHT=/{print $2}')
for _ in $(seq 12); do
    read -r x0 y0 x1 y1 <<<"$(field summary_header)"
    [ "$y1" -lt $((wh - 120)) ] && break
    xdotool mousemove $((wx + (x0 + x1) / 2)) $((wy + wh / 2)) click 5
    sleep 0.3
done
read -r cx cy <<<"$(center summary_header)"
xdotool mousemove "$cx" "$cy" click 1
wait_for summary_table 'true' || fail "clicking the chapter summary did not open it"
wait_for state.summary_rows '[ "$v" -ge 8 ]' || fail "the summary has $(field state.summary_rows) rows, not chapter 3's 8 or more"
shot=$(f12 "the summary") || exit 1
"$png_check" "$shot" --min 1200x800 --color 80,160,255 || fail "summary screenshot"
cp "$shot" "$out/summary-en.png"
rm -f "$HOME"/cuda-lessons-exports/*.png
read -r cx cy <<<"$(center lang_zh)"
xdotool mousemove "$cx" "$cy" click 1
wait_for state.language '[ "$v" = zh ]' || fail "clicking 中文 did not switch the language"
wait_for summary_table 'true' || fail "the summary closed when the language changed"
shot=$(f12 "the Chinese summary") || exit 1
"$png_check" "$shot" --min 1200x800 --color 80,160,255 || fail "Chinese summary screenshot"
cp "$shot" "$out/summary-zh.png"
# Closed before the next window: it writes the same positions file, and a later check could
# read its state instead of the new window's.
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""
echo "== responsiveness: lesson 3.1 (the OpenMP sum) live on every core, the GUI drawing meanwhile"
# The worker measures at the GUI's own priority, as the CLI does (the GUI starts it with
# serve --nice=0: lowered, any other program took the measured threads' cores, issue 40), and
# the GUI leaves the cores to the CPU step by drawing a frame a second meanwhile. The mean frame
# time is printed.
rm -f "$rects"
# Its worker starts slowly, as on a loaded machine (a wrapper that waits a second, then becomes
# cuda-lessons-cli serve): the GUI is busy, its run asked for, well before the worker has set
# its priority, so its threads are checked once it has said hello. Only the order of events
# decides the check below, never how long they take.
slow_worker=()
cli_next_to_app="$(dirname "$app")/../cli/cuda-lessons-cli"
if [ -x "$cli_next_to_app" ]; then
    printf '#!/bin/sh\nsleep 1\nexec "%s" "$@"\n' "$(cd "$(dirname "$cli_next_to_app")" && pwd)/cuda-lessons-cli" >"$out/slow-worker.sh"
    chmod +x "$out/slow-worker.sh"
    slow_worker=(--worker "$out/slow-worker.sh")
fi
CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 3.1 --run --size 1GiB --lang en --scale 1 --stats \
    "${slow_worker[@]}" --screenshot "$out/responsive.png" >"$out/responsive.log" 2>&1 &
app_pid=$!
wait_for state.busy '[ "$v" = True ]' || fail "lesson 3.1 never started running"
# The GUI is busy as soon as it has asked for the run, which may be before the worker has set
# its priority (it does so first thing, then says hello with its "nice"): the threads are
# checked once the GUI has that hello, in the worker the GUI names.
wait_for state.worker_nice 'true' ||
    fail "the worker never said its nice value (its hello's \"nice\")"
worker_nice=$(field state.worker_nice)
worker_pid=$(field state.worker_pid)
[ "$worker_pid" -gt 0 ] 2>/dev/null || fail "the GUI names no worker process ($worker_pid)"
gui_nice=$(awk '{print $19}' "/proc/$app_pid/stat")
[ "$worker_nice" = "$gui_nice" ] || fail "the worker says it runs at nice $worker_nice, not at the GUI's $gui_nice (a measurement would not be the CLI's)"
threads=0
for task in /proc/"$worker_pid"/task/*; do
    n=$(sed 's/.*) //' "$task/stat" 2>/dev/null | awk '{print $17}')
    [ -n "$n" ] || continue  # a thread that ended meanwhile
    threads=$((threads + 1))
    [ "$n" = "$worker_nice" ] || fail "worker thread ${task##*/} runs at nice $n, not the $worker_nice its worker said (the GUI's: $gui_nice)"
done
[ "$threads" -gt 0 ] || fail "worker $worker_pid has no threads to check: it ended before its run did"
echo "every one of the worker's $threads threads runs at nice $worker_nice (the GUI at $gui_nice)"
wait "$app_pid"; rc=$?; app_pid=""
[ "$rc" = 0 ] || { cat "$out/responsive.log"; fail "cuda-lessons exited with $rc"; }
stats=$(grep "frames while running" "$out/responsive.log")
echo "$stats"
read -r frames mean <<<"$(sed -E 's/frames while running: ([0-9]+), mean ([0-9.]+) ms.*/\1 \2/' <<<"$stats")"
[ -n "$mean" ] || { cat "$out/responsive.log"; fail "no frame statistics"; }
# A frame a second while the CPU step is measured (more on a mouse move): however long the run
# takes on this machine, more than one frame shows the GUI kept drawing.
[ "$frames" -ge 2 ] || fail "only $frames frames while lesson 3.1 ran: the GUI did not keep drawing"
echo "mean frame time while lesson 3.1 runs: $mean ms (reported, not a pass/fail threshold)"
"$png_check" "$out/responsive.png" --min 1200x800 --color 80,160,255 || fail "responsiveness screenshot"

# A build without CUDA (the ImGui 1.90.1 check's) has no step harness, and an exercise's signature
# and launch belong to its step kind's harness: there Compile cannot run, and the worker says why.
worker_cli="$(dirname "$app")/../cli/cuda-lessons-cli"
if [ -x "$worker_cli" ] && ! "$worker_cli" info 2>/dev/null | grep -qE '^built with CUDA +yes'; then
echo "== an exercise without CUDA in the build: the CLI refuses to compile it, saying why"
printf '__global__ void k() {}\n' >"$out/no-cuda-kernel.cu"
msg=$("$worker_cli" run gemv/warp-per-row --kernel "$out/no-cuda-kernel.cu" 2>&1); rc=$?
[ "$rc" != 0 ] || fail "a build without CUDA claimed to run a student's kernel"
grep -q "built without CUDA" <<<"$msg" || fail "no reason given for not compiling: $msg"
else
echo "== an exercise (4.2): a line typed into the editor, compiled (its error marked), fixed by 'my editor', kept after a crash; English then Chinese"
export XDG_DATA_HOME="$out/data"
# "My editor": what Open in my editor starts (CUDA_LESSONS_EDITOR), here a script that deletes the
# typed line from the file it is given, as a student would in their own editor.
cat >"$out/my-editor.sh" <<'SH'
#!/bin/sh
sleep 0.3
sed -i 's/BAD_NAME = 1;//' "$1"
SH
chmod +x "$out/my-editor.sh"
exercise_session() {  # exercise_session LANG
    rm -f "$HOME"/cuda-lessons-exports/*.png "$rects"
    CUDA_LESSONS_EDITOR="$out/my-editor.sh" CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson gemv/warp-per-row \
        --lang "$1" --scale 1 >"$out/exercise-$1.log" 2>&1 &
    app_pid=$!
    wait_for tab_exercise 'true' || fail "lesson 4.2 has no Exercise tab ($1)"
    wait_for state.busy '[ "$v" = False ]' || fail "the worker did not list the lessons ($1)"
    window=$(xdotool search --sync --pid "$app_pid" | head -1)
    read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
    press() {  # held across ImGui 1.86's poll
        read -r cx cy <<<"$(center "$1")"
        xdotool mousemove "$cx" "$cy"; sleep 0.2; xdotool mousedown 1; sleep 0.15; xdotool mouseup 1; sleep 0.3
    }
    press tab_exercise
    wait_for state.code_tab '[ "$v" = 3 ]' || fail "the Exercise tab did not open ($1)"
    wait_for exercise_editor 'true' || fail "no editor on the Exercise tab ($1)"
    sleep 0.3
}
exercise_session en
file=$(field state.exercise_file)
[ -f "$file" ] || fail "the student's file was not written under XDG_DATA_HOME: '$file'"
case "$file" in "$out/data/"*) ;; *) fail "the student's file is not under XDG_DATA_HOME: $file" ;; esac
# Ctrl+End: the end of the text (held across ImGui 1.86's poll), then a line of our own.
to_end() { xdotool keydown ctrl keydown End; sleep 0.15; xdotool keyup End keyup ctrl; sleep 0.2; }
press exercise_editor
wait_for state.text_input '[ "$v" = True ]' || fail "clicking the editor did not give it the keys"
to_end
xdotool type --delay 40 'BAD_NAME = 1;'
# Saved after a pause: the file has the line (the editor was clean before it was typed in, so
# its clean state alone could be read before the keys were).
saved() {  # saved TEXT: in the student's file within a minute, and the editor clean again
    for _ in $(seq 1200); do grep -qF -- "$1" "$file" && break; sleep 0.05; done
    grep -qF -- "$1" "$file" && wait_for state.exercise_dirty '[ "$v" = False ]'
}
saved 'BAD_NAME = 1;' || fail "the typed text was not saved in $file"
press exercise_compile
wait_for state.exercise_compile '[ "$v" = error ]' || fail "the typed line gave no compile error (compile: $(field state.exercise_compile))"
[ "$(field state.exercise_marked_lines)" -ge 1 ] || fail "no line of the editor is marked with the compiler's error"
shot=$(f12 "the exercise") || exit 1
"$png_check" "$shot" --min 1200x800 --color 255,89,89 || fail "the exercise's screenshot shows no error in red"
cp "$shot" "$out/exercise-error-en.png"
press exercise_open_editor
wait_for state.exercise_compile '[ "$v" = ok ]' || fail "the file changed by 'my editor' was not read again and compiled"
grep -q 'BAD_NAME' "$file" && fail "my editor's change was undone"
# A crash loses nothing typed before the pause that saves it.
press exercise_editor
to_end
xdotool type --delay 40 '// kept across a crash'
saved '// kept across a crash' || fail "the comment was not saved in $file"
worker_pid=$(pgrep -P "$app_pid" | head -1)
kill -9 "$app_pid"; wait "$app_pid" 2>/dev/null; app_pid=""
[ -n "$worker_pid" ] && kill -9 "$worker_pid" 2>/dev/null
exercise_session zh
grep -q 'kept across a crash' "$file" || fail "the student's file lost the comment"
press exercise_compile
wait_for state.exercise_compile '[ "$v" = ok ]' || fail "the kept kernel did not compile ($(field state.exercise_compile))"
misses=$(python3 -c "import json; print('; '.join(json.load(open('$rects'))['state']['translation_misses']))")
[ -z "$misses" ] || fail "English left untranslated on the Chinese Exercise tab: $misses"
shot=$(f12 "the Chinese exercise") || exit 1
"$png_check" "$shot" --min 1200x800 || fail "the Chinese exercise's screenshot"
cp "$shot" "$out/exercise-ok-zh.png"
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""
unset XDG_DATA_HOME
fi

echo "== presenter mode at 1280x720, scale 2 (F5), in English and Chinese"
xvfb_launch 1280x720x24 "$out/xvfb720.log"
xvfb720=$xvfb_pid
export DISPLAY=$xvfb_display
rm -f "$HOME"/cuda-lessons-exports/*.png "$rects"
CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 5.8 --lang en --scale 2 >"$out/presenter.log" 2>&1 &
app_pid=$!
wait_for state.label '[ "$v" = 5.8 ]' || fail "lesson 5.8 did not open on the 1280x720 screen"
# 1280 px at scale 2 is 40 font heights: the page takes the list's room, a strip with » shows it.
wait_for list_show 'true' || fail "no strip to show the lesson list before presenter mode"
[ "$(field state.list_pane)" = False ] || fail "the lesson list takes the room of a 1280x720 page at scale 2"
[ "$(field state.presenter)" = False ] || fail "presenter mode is on before F5"
window=$(xdotool search --sync --pid "$app_pid" | head -1)
read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
key() { xdotool key "$1"; sleep 0.1; }  # at once: see F12 above
key F5
wait_for state.presenter '[ "$v" = True ]' || fail "F5 did not turn presenter mode on"
wait_for state.list_pane '[ "$v" = False ]' || fail "presenter mode still draws the lesson list"
wait_for state.code_pane '[ "$v" = False ]' || fail "presenter mode still draws the code pane"
# check WHAT PYTHON-EXPRESSION: over the positions file as d, its state as s.
check() {
    python3 - "$rects" "$2" <<'PY' || fail "presenter mode: $1"
import json, sys
d = json.load(open(sys.argv[1])); s = d["state"]
ok = eval(sys.argv[2])
if not ok:
    print({k: s[k] for k in ("window", "section", "sections", "tooltip", "list_pane", "code_pane",
                             "translation_misses")},
          {k: d.get(k) for k in ("step_chart", "section_pane", "presenter_chart")})
sys.exit(0 if ok else 1)
PY
}
check "no window of 1280x720" 's["window"] == [1280, 720]'
check "no section pane or chart" '"section_pane" in d and "presenter_chart" in d and "step_chart" in d'
check "the text is not shown one section at a time" 's["section"] == 0 and s["sections"] >= 4'
check "the step chart is not large (half the window's height, 40% of its width)" \
    'd["step_chart"][3] - d["step_chart"][1] >= 0.45 * 720 - 80 and d["step_chart"][2] - d["step_chart"][0] >= 0.4 * 1280'
check "the section pane does not stand beside the chart" 'd["section_pane"][2] <= d["step_chart"][0]'
# press_until KEY SECTION: a section longer than its pane is scrolled a screen a key before the
# next one opens (and back before the previous), so the key is pressed until it shows SECTION.
press_until() {
    for _ in $(seq 12); do
        key "$1"
        for _ in $(seq 20); do [ "$(field state.section)" = "$2" ] && return 0; sleep 0.05; done
    done
    return 1
}
press_until Down 1 || fail "the down arrow did not show the next section"
press_until Next 2 || fail "Page Down did not show the next section"
press_until Up 1 || fail "the up arrow did not show the previous section"
read -r cx cy <<<"$(center section_next)"
xdotool mousemove "$cx" "$cy" click 1
wait_for state.section '[ "$v" = 2 ]' || fail "the Next section button did not show the next section"
# A tooltip of the chart's rightmost bar, at the window's right edge: wholly inside the window.
read -r x0 y0 x1 y1 <<<"$(field step_chart)"
xdotool mousemove $((wx + x1 - 48)) $((wy + (y0 + y1) / 2))
wait_for state.tooltip '[ -n "$v" ]' || fail "no tooltip over the chart's last bar"
echo "the last bar's tooltip: $(field state.tooltip) in a window of $(field state.window)"
shot=$(f12 "the tooltip") || exit 1  # with the tooltip
mv "$shot" "$out/presenter-tooltip.png"
# Once it has settled (a tooltip whose text changed is placed for it in the next frame).
inside='read -r a b c d <<<"$v"; [ "$a" -ge 0 ] && [ "$b" -ge 0 ] && [ "$c" -le 1280 ] && [ "$d" -le 720 ]'
wait_for state.tooltip "$inside" || fail "presenter mode: the tooltip is cut at the window's edge: $(field state.tooltip)"
xdotool mousemove $((wx + 5)) $((wy + 5))
shot=$(f12 "presenter mode") || exit 1
"$png_check" "$shot" --min 1280x720 --color 80,160,255 --color 70,200,170 || fail "presenter screenshot (en)"
cp "$shot" "$out/presenter-en.png"
rm -f "$HOME"/cuda-lessons-exports/*.png
read -r cx cy <<<"$(center lang_zh)"
xdotool mousemove "$cx" "$cy" click 1
wait_for state.language '[ "$v" = zh ]' || fail "clicking 中文 in presenter mode did not switch the language"
wait_for state.presenter '[ "$v" = True ]' || fail "presenter mode ended with the language switch"
check "the Chinese section pane or chart is missing" '"section_pane" in d and "step_chart" in d and not s["list_pane"] and not s["code_pane"]'
check "untranslated strings in Chinese" 'not s["translation_misses"]'
xdotool mousemove $((wx + 5)) $((wy + 5))
shot=$(f12 "presenter mode in Chinese") || exit 1
"$png_check" "$shot" --min 1280x720 --color 80,160,255 --color 70,200,170 || fail "presenter screenshot (zh)"
cp "$shot" "$out/presenter-zh.png"
key F5
wait_for state.presenter '[ "$v" = False ]' || fail "F5 did not turn presenter mode off"
wait_for list_show 'true' || fail "the lesson list's strip did not come back after presenter mode"
wait_for state.code_pane '[ "$v" = True ]' || fail "the code pane did not come back after presenter mode"
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""

echo "== the roofline in presenter mode at 1280x720, scale 2, in English and Chinese"
# Its roof labels cover no point and no other label, its legend (short chapter titles) and the
# line of labels left out fit the chart's pane, inside the window.
rm -f "$HOME"/cuda-lessons-exports/*.png "$rects"
CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 6.1 --lang en --scale 2 --presenter \
    >"$out/presenter-roofline.log" 2>&1 &
app_pid=$!
wait_for state.label '[ "$v" = 6.1 ]' || fail "the roofline page did not open in presenter mode"
wait_for state.roof_points '[ "$v" -gt 0 ]' || fail "the presenter roofline draws no point"
window=$(xdotool search --sync --pid "$app_pid" | head -1)
read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
xdotool mousemove $((wx + 5)) $((wy + 5))
for lang in en zh; do
    if [ $lang = zh ]; then
        read -r cx cy <<<"$(center lang_zh)"
        xdotool mousemove "$cx" "$cy" click 1
        wait_for state.language '[ "$v" = zh ]' || fail "clicking 中文 did not switch the presenter roofline's language"
        xdotool mousemove $((wx + 5)) $((wy + 5))
        sleep 0.3
    fi
    check "the roofline's labels ($lang)" 's["presenter"] and s["roof_label_overlaps"] == 0'
    check "the roofline's key over its plot ($lang)" 's["roof_key_over_plot"] == 0'
    check "the roofline is not drawn large ($lang)" \
        '"roofline_chart" in d and d["roofline_chart"][3] - d["roofline_chart"][1] >= 0.35 * 720'
    check "the roofline's legend is cut off ($lang)" \
        '"roof_legend_end" in d and d["roof_legend_end"][3] <= d["presenter_chart"][3] + 0.5 <= 720.5'
    check "untranslated strings ($lang)" 'not s["translation_misses"]'
    shot=$(f12 "the presenter roofline ($lang)") || exit 1
    "$png_check" "$shot" --min 1280x720 || fail "presenter roofline screenshot ($lang)"
    mv "$shot" "$out/presenter-roofline-$lang.png"
done
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""

echo "== without a GPU: \"Sweep block sizes\" shows the recorded sweep"
export DISPLAY=$display
rm -f "$HOME"/cuda-lessons-exports/*.png "$rects"
CUDA_VISIBLE_DEVICES="" CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 1.4 --lang en --scale 1 \
    >"$out/recorded-sweep.log" 2>&1 &
app_pid=$!
wait_for state.label '[ "$v" = 1.4 ]' || fail "lesson 1.4 did not open"
wait_for state.recorded_block_sweep '[ "$v" = True ]' || fail "lesson 1.4 has no recorded block sweep at $(field state.params)"
window=$(xdotool search --sync --pid "$app_pid" | head -1)
read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
read -r cx cy <<<"$(center sweep_blocks)"
xdotool mousemove "$cx" "$cy" click 1
# The block sweep's section: recorded on the reference GPU (the H200, the default "Recorded on") at
# 32 to 1024 threads, labelled so.
sweep_shown() {
    python3 - "$rects" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["state"]["sweeps"].get("block", {})
sys.exit(0 if b.get("recorded") and b.get("points") == 6 and "NVIDIA H200" in b.get("note", "") else 1)
PY
}
for _ in $(seq 2400); do sweep_shown 2>/dev/null && break; sleep 0.05; done
sweep_shown || fail "\"Sweep block sizes\" showed no recorded sweep: $(field state.sweeps)"
xdotool mousemove $((wx + 5)) $((wy + 5))
shot=$(f12 "the recorded sweep") || exit 1
"$png_check" "$shot" --min 1200x700 --color 80,160,255 || fail "recorded sweep screenshot"
mv "$shot" "$out/recorded-sweep-en.png"
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""

echo "== with a GPU worker (a stand-in answering from the recorded results): the roofline's sweep, live"
rm -f "$rects" "$out/gpu-worker.log"
FAKE_WORKER_LOG="$out/gpu-worker.log" CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lesson 6.1 --size 1GiB \
    --lang en --scale 1 --worker "$here/fake_worker_gpu.py" >"$out/gpu-worker-app.log" 2>&1 &
app_pid=$!
wait_for state.label '[ "$v" = 6.1 ]' || fail "the roofline page did not open with the GPU worker"
wait_for state.busy '[ "$v" = False ]' || fail "the GPU worker never went idle"
wait_for roof_sweep 'true' || fail "no sweep button on the roofline page"
window=$(xdotool search --sync --pid "$app_pid" | head -1)
read -r wx wy <<<"$(xdotool getwindowgeometry --shell "$window" | awk -F= '/^X=/{x=$2} /^Y=/{y=$2} END{print x, y}')"
[ "$(field state.roof_trace_points)" = 0 ] || fail "the roofline traces a sweep before one was asked for"
read -r cx cy <<<"$(center roof_sweep)"
xdotool mousemove "$cx" "$cy" click 1
wait_for state.roof_trace_points '[ "$v" -ge 12 ]' || fail "the live FMA sweep was not traced: $(field state.roof_trace_points) points"
[ "$(field state.roof_trace_recorded)" = False ] || fail "the live sweep is traced as recorded"
python3 - "$out/gpu-worker.log" <<'PY' || fail "the sweep request"
import json, sys
sweeps = [json.loads(l) for l in open(sys.argv[1]) if '"sweep"' in l]
want = [2 ** k for k in range(1, 13)]
ok = len(sweeps) == 1 and sweeps[0]["over"] == "fmas" and sweeps[0]["values"] == want
sys.exit(0 if ok else "sweep requests: %s" % sweeps)
PY
echo "the live FMA sweep: $(field state.roof_trace_points) points traced"
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""
echo "all GUI end-to-end checks passed"
