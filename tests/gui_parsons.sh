#!/usr/bin/env bash
# The Parsons problem in the real window (issue 41, item 6), under Xvfb without a GPU, the real
# cuda-lessons with its real worker, in English, then in Chinese, on lesson 4.2:
#  1. the Exercise tab and the Parsons part opened by keyboard (Tab, Space); its first line
#     dragged below the second with the mouse: the two change places;
#  2. "Check order" on the shuffled lines: the places out of place are named at once, and the
#     worker's compile answer comes (it cannot compile, or compiles unchecked);
#  3. by keyboard alone, the lines put in the answer's order (cuda-lessons-cli parsons --answer,
#     the same student's seed): each wrong line selected with Space and set aside with Delete,
#     each right line selected and moved up with Alt+Up; "Check order" then finds nothing out of
#     place, and the kernel compiles, "not checked: needs a GPU";
#  4. each attempt is in the progress file (cuda-lessons-cli progress); a solved problem (written
#     into the file) is marked in the lesson list.
# Screenshots (F12) of the panel after the wrong and the right order go to OUT_DIR
# (parsons-*.png).
# Usage: gui_parsons.sh CUDA_LESSONS CUDA_LESSONS_CLI OUT_DIR     (exit 77: skipped, no Xvfb)
set -u
app=$1 cli=$2 out=$3
for tool in Xvfb xdotool python3; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out/home" "$out/config/cuda-lessons"
export HOME="$out/home" XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" \
    CUDA_VISIBLE_DEVICES="" USER=ada
printf '{"first_run_closed": true}\n' >"$out/config/cuda-lessons/settings.json"

# The answer for this student's seed, as a teacher sees it.
"$cli" parsons 4.2 --answer --format json >"$out/answer.json" 2>"$out/answer.err" ||
    fail "cuda-lessons-cli parsons 4.2 --answer: $(cat "$out/answer.err")"

source "$(dirname "$0")/gui_xvfb.sh"
start_xvfb 331 370

# drive NAME CHECKS [APP ARGS...]: starts the app, runs the Python CHECKS against its positions
# file (helpers: state, key, go_to, shot), closes it.
drive() {
    local name=$1 checks=$2; shift 2
    local rects="$out/$name.json"
    rm -f "$rects"
    CUDA_LESSONS_RECTS_FILE="$rects" "$app" "$@" >"$out/app-$name.log" 2>&1 &
    app_pid=$!
    python3 - "$rects" "$app_pid" "$out" "$name" <<PY || { tail -5 "$out/app-$name.log"; fail "$name"; }
import glob, json, os, shutil, subprocess, sys, time
rects, pid, out, name = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
answer = json.load(open(os.path.join(out, "answer.json")))["answer"]

def state(timeout=60.0, test=lambda d: True):
    end, last = time.time() + timeout, None
    while time.time() < end:
        try:
            last = json.load(open(rects))
            if "state" in last and test(last):
                return last
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    sys.exit("%s: the window never reached the state wanted (last: %s)"
             % (name, json.dumps(last["state"] if last and "state" in last else None)[:900]))

def xdo(*args):
    subprocess.run(["xdotool", *args], check=True)

def key(k):  # held a moment: ImGui 1.86 misses a press and a release in one poll
    xdo("keydown", k); time.sleep(0.1); xdo("keyup", k); time.sleep(0.05)

last_focus = [None]
def press_focus(k):
    """Presses Tab or shift+Tab until the focus moves (up to three times); the focus and state."""
    for attempt in range(3):
        key(k)
        end = time.time() + 1.5
        while True:
            d = state(10)
            if d["state"]["focused"] != last_focus[0] or time.time() > end: break
            time.sleep(0.02)
        if d["state"]["focused"] != last_focus[0]: break
    last_focus[0] = d["state"]["focused"]
    return d["state"]["focused"], d

def go_to(target, forward=400):
    """The focus on the target: Tab forward, or shift+Tab back where it lies above the focus."""
    d = state(10)
    cur = d["state"]["focused"]
    if cur == target: return d
    ahead = True
    if cur in d and target in d:
        ahead = (d[target][1], d[target][0]) > (d[cur][1], d[cur][0])
    if not ahead:
        for _ in range(80):
            f, d = press_focus("shift+Tab")
            if f == target: return d
    for _ in range(forward):
        f, d = press_focus("Tab")
        if f == target: return d
    sys.exit("%s: the focus never reached %s" % (name, target))

def wheel_to_answer():
    """The code pane wheeled down over the Parsons part: its answer in view for the screenshot."""
    d = state(10)
    x0, y0, x1, y1 = d["parsons_check"]
    xdo("mousemove", str(int(geo["X"]) + int(x0) + 5), str(int(geo["Y"]) + int(y0) + 3))
    xdo("click", "--repeat", "3", "--delay", "40", "5")
    time.sleep(0.5)

shots = 0
def shot(label):
    global shots
    xdo("mousemove", "1", "1")
    time.sleep(0.3)
    exports = os.path.join(os.environ["HOME"], "cuda-lessons-exports", "*.png")
    before = set(glob.glob(exports))
    key("F12")
    for _ in range(50):
        now = set(glob.glob(exports))
        if now - before: break
        time.sleep(0.1)
    new = sorted(now - before)
    if not new: sys.exit("F12 wrote no screenshot for " + label)
    time.sleep(0.3)
    shutil.copy(new[-1], os.path.join(out, "parsons-%s-%s.png" % (label, name)))
    shots += 1

d = state(test=lambda d: d["state"]["label"] == "4.2")
win = subprocess.run(["xdotool", "search", "--sync", "--pid", pid], capture_output=True,
                     text=True, check=True).stdout.split()[0]
xdo("windowfocus", win)  # keyboard focus: no window manager here
xdo("mousemove", "1", "1")
geo = dict(l.split("=") for l in subprocess.run(["xdotool", "getwindowgeometry", "--shell", win],
           capture_output=True, text=True, check=True).stdout.split())
$checks
print("%s: %d screenshots" % (name, shots))
PY
    kill "$app_pid" 2>/dev/null
    wait "$app_pid" 2>/dev/null
    app_pid=""
}

parsons_checks='
# 1. The Exercise tab, then the Parsons part, by keyboard.
d = go_to("tab_exercise"); key("space")
state(10, lambda d: d["state"]["code_tab"] == 3 and d["state"]["parsons_drawn"])
d = go_to("parsons_header"); key("space")
d = state(10, lambda d: len(d["state"]["parsons_order"]) > 0)
order = d["state"]["parsons_order"]
n = len(order)
if sorted(order) != list(range(1, n + 1)) or sorted(answer) != sorted(set(answer)):
    sys.exit("the shown lines %s do not match the answer %s" % (order, answer))
if order[:len(answer)] == answer: sys.exit("the shuffle shows the answer")
# The first line dragged below the second: the two change places.
x0, y0, x1, y1 = d["parsons_line_%d" % order[0]]
h = y1 - y0
ox, oy = int(geo["X"]), int(geo["Y"])
xdo("mousemove", str(ox + int((x0 + x1) / 2)), str(oy + int(y0 + h / 2)))
time.sleep(0.2)
xdo("mousedown", "1"); time.sleep(0.2)
for step in range(1, 6):
    xdo("mousemove", str(ox + int((x0 + x1) / 2)), str(oy + int(y0 + h / 2 + step * h * 0.25)))
    time.sleep(0.08)
xdo("mouseup", "1"); time.sleep(0.3)
d = state(10, lambda d: d["state"]["parsons_order"][:2] == [order[1], order[0]])
last_focus[0] = d["state"]["focused"]

# 2. Check order on the shuffle: the places out of place at once, then the compile answer.
go_to("parsons_check"); key("space")
d = state(60, lambda d: d["state"]["parsons_result"] in ("did not compile", "not checked", "wrong"))
if not d["state"]["parsons_out_of_place"]: sys.exit("no place named out of place for a shuffle")
print("  the shuffle: %s, out of place %s" % (d["state"]["parsons_result"], d["state"]["parsons_out_of_place"]))
wheel_to_answer()
shot("shuffled")

# 3. By keyboard: each wrong line set aside, each right one moved up to its place.
for place in [p for p in d["state"]["parsons_order"] if p not in answer]:
    go_to("parsons_line_%d" % place); key("space")
    state(10, lambda d: d["state"]["parsons_selected"] == place)
    key("Delete")
    state(10, lambda d: place in d["state"]["parsons_aside"])
for i, place in enumerate(answer):
    d = state(10)
    j = d["state"]["parsons_order"].index(place)
    if j == i: continue
    go_to("parsons_line_%d" % place); key("space")
    state(10, lambda d: d["state"]["parsons_selected"] == place)
    for _ in range(j - i):
        before = state(10)["state"]["parsons_order"].index(place)
        for attempt in range(3):
            key("alt+Up")
            if state(10)["state"]["parsons_order"].index(place) == before - 1: break
            time.sleep(0.2)
    state(10, lambda d: d["state"]["parsons_order"].index(place) == i)
d = state(10, lambda d: d["state"]["parsons_order"] == answer)
go_to("parsons_check"); key("space")
d = state(60, lambda d: d["state"]["parsons_result"] in ("not checked", "solved", "wrong", "did not compile"))
if d["state"]["parsons_result"] != "not checked":
    sys.exit("the order of the answer: %s, not not-checked (no GPU here)" % d["state"]["parsons_result"])
if d["state"]["parsons_out_of_place"]: sys.exit("the answer has places out of place: %s" % d["state"]["parsons_out_of_place"])
wheel_to_answer()
shot("ordered")
'

echo "== lesson 4.2 (en)"
drive "en" "$parsons_checks" --lesson 4.2 --lang en --scale 1
"$cli" progress --format json >"$out/progress-en.json" 2>&1 || fail "progress: $(cat "$out/progress-en.json")"
python3 - "$out/progress-en.json" <<'PY' || fail "the attempts are not in the progress"
import json, sys
p = json.load(open(sys.argv[1]))["parsons"]
e = [x for x in p if x["lesson"] == "gemv/warp-per-row"]
assert e and e[0]["attempts"] >= 2 and e[0]["last_result"] == "not checked", p
PY

echo "== lesson 4.2 (zh), a solved problem marked in the list"
python3 - "$XDG_DATA_HOME/cuda-lessons/progress.json" <<'PY'
import json, sys
path = sys.argv[1]
p = json.load(open(path))
p["parsons"].append({"lesson": "reduce/v4-warp-shuffle", "attempts": 1, "solved": True,
                     "solved_at": "2026-11-29T12:00:00Z", "last_at": "2026-11-29T12:00:00Z",
                     "last_result": "solved"})
json.dump(p, open(path, "w"))
PY
drive "zh" "$parsons_checks"'
d = state(10)
if "parsons" not in d["state"]["progress_marks"].get("reduce/v4-warp-shuffle", ""):
    sys.exit("no Parsons mark for 3.6: %s" % d["state"]["progress_marks"])
' --lesson 4.2 --lang zh --scale 1
n=$(ls "$out"/parsons-*.png 2>/dev/null | wc -l)
[ "$n" -ge 4 ] || fail "$n screenshots, 4 expected"
echo "PASSED: $n screenshots in $out"
