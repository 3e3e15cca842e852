#!/usr/bin/env bash
# The newcomer's walk, under Xvfb, without a GPU (CUDA_VISIBLE_DEVICES is emptied, so a build
# with CUDA on a GPU machine walks the same pages a student without one sees): the real
# cuda-lessons with its real worker, started from an empty config.
#  1. the first-run page is shown at the very first start; F1 closes it;
#  2. every lesson of the catalogue is walked with the right arrow key, in English, then (a
#     second start, which must not show the first-run page again) in Chinese. On each lesson,
#     as it arrives: the step chart draws at least one result (chart_points), the text and code
#     panes are at their top, and (Chinese) no string was looked up without its translation.
#     Then the text and code panes are scrolled down before moving on (each wheel taken by the
#     window over its pane; a text pane longer than its page scrolls), so that the next lesson
#     must really reset them;
#     On the roofline page: points drawn, the chart at least 35% of the window's height, at most
#     one roof label over a point or another label, and (Chinese) its legend and chapter list
#     in Chinese, none as in English; its sweep button traces the recorded FMA sweep;
#     On each lesson with a block-size sweep recorded at the page's settings, S shows it,
#     labelled as recorded with its GPU and date (at least 15 lessons);
#  3. at the end every lesson is marked opened in settings.json, and the first-run page closed.
# Usage: gui_walk.sh CUDA_LESSONS CUDA_LESSONS_CLI OUT_DIR     (exit 77: skipped, no Xvfb)
set -u
app=$1 cli=$2 out=$3
source "$(dirname "$0")/gui_xvfb.sh"
gui_prepare

# The catalogue's lessons, as the CLI lists them (labels such as 5.8).
"$cli" list >"$out/list.txt" 2>&1 || fail "cuda-lessons-cli list exited with $?"
labels=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ {print $1}' "$out/list.txt" | tr '\n' ' ')
[ -n "$labels" ] || fail "no lessons in cuda-lessons-cli list"

start_xvfb

# walk LANG FIRST_RUN_EXPECTED [ARGS...]: starts the app, checks the first-run page's state,
# closes it if shown, walks every lesson, closes the app (which saves its settings).
walk() {
    local lang=$1 first_run=$2; shift 2
    local rects="$out/walk-$lang.json"
    rm -f "$rects"
    CUDA_LESSONS_RECTS_FILE="$rects" "$app" --lang "$lang" --scale 1 "$@" \
        >"$out/app-$lang.log" 2>&1 &
    app_pid=$!
    failed() { tail -5 "$out/app-$lang.log"; fail "the walk in $lang"; }
    python3 - "$rects" "$app_pid" "$lang" "$first_run" "$labels" <<'PY' || failed
import json, subprocess, sys, time
rects, pid, lang = sys.argv[1], sys.argv[2], sys.argv[3]
first_run, labels = sys.argv[4] == "1", sys.argv[5].split()

def state(timeout=60.0, test=lambda s: True):
    """The newest state (with the rectangles) passing `test`, polled for up to `timeout` s. A wait
    whose end fails the walk is a hang guard (60 s: a loaded machine draws a frame in seconds)."""
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            d = json.load(open(rects))
            last = d
            if test(d):
                return d
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    return None if last is None or not test(last) else last

def xdo(*args):
    subprocess.run(["xdotool", *args], check=True)

def key(name):
    """Pressed and released at once: the app gives the press and the release a frame each
    (app/panels/input_trickle.h), so ImGui 1.86 sees it too. Held across a loaded machine's
    slow frames (xdotool keydown, a sleep, keyup), ImGui repeated the arrow (its own key repeat,
    after 0.275 s held) and the walk skipped a lesson (5.1, 3.3, 9.9 here)."""
    xdo("key", name)

d = state(test=lambda d: "state" in d and d["state"]["label"] != "")
if d is None: sys.exit("the window never wrote its state")
win = subprocess.run(["xdotool", "search", "--sync", "--pid", pid], capture_output=True,
                     text=True, check=True).stdout.split()[0]
geo = dict(l.split("=") for l in subprocess.run(["xdotool", "getwindowgeometry", "--shell", win],
           capture_output=True, text=True, check=True).stdout.split())
wx, wy = int(geo["X"]), int(geo["Y"])
if d["state"]["first_run_page"] != first_run:
    sys.exit("first_run_page is %s at start, expected %s"
             % (d["state"]["first_run_page"], first_run))
if first_run:
    if "first_run_page" not in d: sys.exit("the first-run page was not drawn")
    xdo("mousemove", str(wx + 5), str(wy + 5))
    key("F1")
    if state(60, lambda d: not d["state"]["first_run_page"]) is None:
        sys.exit("F1 did not close the first-run page")

def pointer_seen(x, y):
    """Moves the pointer to (x, y) in the window; the first state of a frame that saw it there.
    ImGui 1.86 reads the pointer once a frame and turns a frame's wheel steps where it is then: a
    loaded machine's frame took the text pane's six steps and the code pane's six together, all
    over the code pane (the text pane "scrolled" on 2 lessons of 14 at a load of 15)."""
    xdo("mousemove", str(wx + x), str(wy + y))
    d = state(60, lambda d: [round(v) for v in d["state"]["mouse"]] == [x, y])
    if d is None:
        sys.exit("the window never saw the pointer at %d, %d" % (x, y))
    return d

def wheel(x, y, clicks, button="5"):
    """The wheel turned `clicks` steps (button 5 down, 4 up) at (x, y) in the window, once a frame
    has seen the pointer there, and waited for until the window has taken every step (the
    state's wheel_taken): (the state before, the state after)."""
    before = pointer_seen(x, y)
    taken, sign = before["state"]["wheel_taken"], (-1 if button == "5" else 1)
    xdo("click", "--repeat", str(clicks), "--delay", "5", button)
    after = state(60, lambda d: (d["state"]["wheel_taken"] - taken) * sign >= clicks - 0.01)
    if after is None:
        sys.exit("the window never took the wheel's %d steps at %d, %d" % (clicks, x, y))
    return before, after

def scroll_down(name):
    """Scrolls pane `name` down with the mouse wheel at its middle: (the state before, after)."""
    x0, y0, x1, y1 = state()[name]
    return wheel(int((x0 + x1) / 2), int((y0 + y1) / 2), 6)

def roofline_page(want, d):
    """The whole roofline: its points, a chart as tall as the page allows, its roof labels clear
    of the points, its legend and chapter list in the page's language."""
    d = state(60, lambda d: "roofline_chart" in d and d["state"]["roof_points"] > 0)
    if d is None:
        sys.exit("lesson %s: the roofline draws no point" % want)
    s = d["state"]
    x0, y0, x1, y1 = d["roofline_chart"]
    if y1 - y0 < 0.35 * s["window"][1]:
        sys.exit("lesson %s: the roofline is %d px tall in a window %d px tall"
                 % (want, y1 - y0, s["window"][1]))
    if not 0 <= s["roof_label_overlaps"] <= 1:
        sys.exit("lesson %s: %s roof labels cover points or each other"
                 % (want, s["roof_label_overlaps"]))
    legend, combo = s["roof_legend"], s["bench_chapter"]
    if len(legend) < 5:
        sys.exit("lesson %s: the roofline's legend names %d chapters" % (want, len(legend)))
    saved = rects.replace("walk-%s.json" % lang, "roof-legend-en.json")
    if lang == "en":
        json.dump(legend + [combo], open(saved, "w"))
    else:
        english = json.load(open(saved))
        for entry in legend + [combo]:
            if entry in english or all(ord(ch) < 128 for ch in entry):
                sys.exit("lesson %s: %r in the roofline's legend or chapter list is not Chinese"
                         % (want, entry))
    print("%s: the roofline %dx%d px, %d points, %d labels over points, legend %s"
          % (lang, x1 - x0, y1 - y0, s["roof_points"], s["roof_label_overlaps"], legend))

def recorded_block_sweep(want):
    """S, as "Sweep block sizes", without a GPU: the block-size sweep recorded at the page's
    settings, charted and labelled with its GPU and date, in the page's language."""
    key("s")
    d = state(60, lambda d: d["state"]["sweeps"].get("block", {}).get("points", 0) >= 2)
    if d is None:
        sys.exit("lesson %s: S drew no recorded block-size sweep: %s"
                 % (want, state()["state"]["sweeps"]))
    b = d["state"]["sweeps"]["block"]
    # Recorded on the reference GPU, the default "Recorded on" (lessons::kReferenceGpu).
    if not b["recorded"] or "2026-" not in b["note"] or "NVIDIA H200" not in b["note"]:
        sys.exit("lesson %s: the block-size sweep is not labelled as recorded: %s" % (want, b))
    if lang == "zh" and "录制" not in b["note"]:
        sys.exit("lesson %s: the recorded sweep's note is not Chinese: %s" % (want, b["note"]))
    global swept
    swept += 1

def roofline_trace(want):
    """The roofline's sweep button without a GPU: the recorded sweep traced on the chart."""
    # The right-hand column scrolled back to its top (S on an earlier lesson scrolled it down to
    # its block-size sweep), as a person would with the wheel.
    w, h = state()["state"]["window"]
    wheel(int(w * 0.85), int(h * 0.5), 20, "4")
    d = state(60, lambda d: "roof_sweep" in d and d["roof_sweep"][1] > 0 and
              d["roof_sweep"][3] < d["state"]["window"][1])
    if d is None:
        sys.exit("lesson %s: the roofline's sweep button is not in view: %s"
                 % (want, state().get("roof_sweep")))
    x0, y0, x1, y1 = d["roof_sweep"]
    pointer_seen(int((x0 + x1) / 2), int((y0 + y1) / 2))
    xdo("click", "1")
    d = state(60, lambda d: d["state"]["roof_trace_points"] >= 2)
    if d is None or not d["state"]["roof_trace_recorded"]:
        sys.exit("lesson %s: the sweep button traced no recorded sweep: %s"
                 % (want, state()["state"]["roof_trace_points"]))
    print("%s: the roofline's recorded sweep traced through %d points"
          % (lang, d["state"]["roof_trace_points"]))

previous = None
scrolled = 0
swept = 0
for i, want in enumerate(labels):
    if i > 0:
        # Pressed once: the app queues its input and hands it to ImGui a frame at a time
        # (app/panels/input_trickle.h), so no press is lost, however slow the frames. (A second
        # press after 4 s without the page moving skipped a lesson on a loaded machine.)
        key("Right")
    d = state(60, lambda d: d["state"]["label"] == want)
    if d is None:
        sys.exit("lesson %s never arrived after %s (the page shows %s)" %
                 (want, previous, state()["state"]["label"]))
    s = d["state"]
    # The first frame the script sees of the lesson: its panes at the top already, or the code
    # pane at the kernel of a step that rewrites most of its file (code_open_y: the app scrolls
    # there in the lesson's second frame, which a loaded machine's script may see first).
    # (Its scroll can stop short of the kernel where the pane's content ends first.)
    code_ok = s["code_scroll_y"] == 0 or 0 < s["code_scroll_y"] <= s["code_open_y"] + 1
    if s["text_scroll_y"] != 0 or not code_ok:
        sys.exit("lesson %s opened with the text pane at %s and the code pane at %s, not at the top"
                 " (nor at its kernel, %s)"
                 % (want, s["text_scroll_y"], s["code_scroll_y"], s["code_open_y"]))
    # Its chart: the recorded settings are chosen once the worker has listed the lessons.
    d = state(60, lambda d: d["state"]["label"] == want and d["state"]["chart_points"] > 0)
    if d is None:
        sys.exit("lesson %s: the step chart is empty (chart_points 0) at %s"
                 % (want, json.dumps(state()["state"]["params"])))
    if lang == "zh" and d["state"]["translation_misses"]:
        sys.exit("lesson %s: strings without Chinese: %s"
                 % (want, d["state"]["translation_misses"]))
    if "lesson_" + d["state"]["lesson"] not in d:
        sys.exit("lesson %s: not in the lesson list" % want)
    if "roofline_chart" in d:
        roofline_page(want, d)
        roofline_trace(want)
    if d["state"]["recorded_block_sweep"]:
        recorded_block_sweep(want)
    # Each pane's wheel taken over that pane (wheel()). A text pane longer than its page (as
    # the frame that saw the pointer measured it) scrolls down under the wheel: in that frame
    # or the next; the wait is a hang guard.
    before, after = scroll_down("text_pane")
    scroll_down("code_pane")
    if before["state"]["text_scroll_max"] > 0:
        if state(60, lambda d: d["state"]["text_scroll_y"] > 0) is None:
            sys.exit("lesson %s: the text pane (%s px to scroll) did not scroll under the wheel"
                     % (want, before["state"]["text_scroll_max"]))
        scrolled += 1
    previous = want
print("%s: walked %d lessons, the text pane scrolled down on %d of them, %d recorded block "
      "sweeps shown" % (lang, len(labels), scrolled, swept))
if swept < 15:
    sys.exit("only %d lessons showed a recorded block-size sweep (about 25 are recorded)" % swept)
if scrolled < len(labels) // 2:
    sys.exit("the text pane could be scrolled on only %d lessons: the scroll checks proved little"
             % scrolled)
PY
    kill -TERM "$app_pid"
    wait "$app_pid"
    app_pid=""
}

start=$(date +%s)
walk en 1
walk zh 0 --lesson "${labels%% *}"
settings_failed() { fail "the settings after the walk"; }
python3 - "$out/config/cuda-lessons/settings.json" "$labels" <<'PY' || settings_failed
import json, sys
s = json.load(open(sys.argv[1]))
if s.get("first_run_closed") is not True:
    sys.exit("closing the first-run page was not remembered")
n = len(sys.argv[2].split())
if len(s.get("visited", [])) != n:
    sys.exit("%d lessons marked opened, not %d" % (len(s.get("visited", [])), n))
PY
echo "walk took $(($(date +%s) - start)) s"
echo "all walk checks passed"
