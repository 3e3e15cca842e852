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
source "$(dirname "$0")/gui_xvfb.sh"
gui_prepare
export USER=ada  # the student, whose seed shuffles the lines
printf '{"first_run_closed": true}\n' >"$out/config/cuda-lessons/settings.json"

# The answer for this student's seed, as a teacher sees it.
"$cli" parsons 4.2 --answer --format json >"$out/answer.json" 2>"$out/answer.err" ||
    fail "cuda-lessons-cli parsons 4.2 --answer: $(cat "$out/answer.err")"

start_xvfb

# The screenshots' names and the Python helpers of this script's checks (drive(), gui_xvfb.sh).
shot_prefix=parsons
ready='d["state"]["label"] == "4.2"'
helpers='
answer = json.load(open(os.path.join(out, "answer.json")))["answer"]

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
            if f == target: settle(); return d
    for _ in range(forward):
        f, d = press_focus("Tab")
        if f == target: settle(); return d
    sys.exit("%s: the focus never reached %s" % (name, target))

def wheel_to_answer():
    """The code pane wheeled down over the Parsons part: its answer in view for the screenshot
    (every step of the wheel taken by the window, wheel())."""
    d = settled("parsons_check")
    x0, y0, x1, y1 = d["parsons_check"]
    wheel(int(x0) + 5, int(y0) + 3, 3)
'

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
# The first line dragged below the second: the two change places. The drag starts where the
# line has stayed for a frame, and each of its steps is one the window has drawn (drag()).
swapped = lambda d: d["state"]["parsons_order"][:2] == [order[1], order[0]]
drag("parsons_line_%d" % order[0], swapped)
d = state(10, lambda d: swapped(d) and not d["state"]["mouse_down"])
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
        key("alt+Up")  # never lost (key()): waited for, never pressed twice
        state(30, lambda d: d["state"]["parsons_order"].index(place) == before - 1)
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
