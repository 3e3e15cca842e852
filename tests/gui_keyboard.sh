#!/usr/bin/env bash
# The GUI by keyboard alone and in front of a class (issue 42), under Xvfb without a GPU, the
# real cuda-lessons with its real worker, from an empty config; in English, then in Chinese:
#  1. the first-run page is closed with Esc; then every chapter (in Chinese: 1, 3, 6 and 10, a
#     CPU page, a GPU page with its SASS, the roofline's page and the newest chapter; the focus
#     ring is the same code in both languages, and the Chinese walk of all ten drew 1,343 of
#     the script's 3,366 frames) is walked by keyboard alone:
#     Tab to the filter, Enter, the chapter's first label typed, Enter opens it; then Tab moves
#     through every control of the page in reading order (the lesson list, the text, the code,
#     the controls, the status bar), never twice in a row on one, each in the window when
#     focused, and comes round to the filter again; Space on the SASS tab opens it;
#  2. lesson 4.2's evidence by keyboard: its header opened with Space, Recorded counters
#     pressed with Space: counters under plain names with their explanations, a rule line
#     naming the limiter, and "Profile this step" saying that a GPU is missing;
#  3. lesson 4.2's exercise editor maximised by keyboard (the page gives it the window);
#  4. presenter mode at 1280x720 and scale 2: Down scrolls a section longer than its pane
#     before it moves on; the step's changed lines and its SASS, chosen by keyboard.
# Screenshots (F12) of the focus on a button, the evidence, the editor maximised and presenter
# mode's scrolled section, changed code and SASS go to OUT_DIR (keyboard-*.png).
# Usage: gui_keyboard.sh CUDA_LESSONS CUDA_LESSONS_CLI OUT_DIR     (exit 77: skipped, no Xvfb)
set -u
app=$1 cli=$2 out=$3
source "$(dirname "$0")/gui_xvfb.sh"
gui_prepare

# The first lesson of each chapter, as the CLI lists them (1.1, 2.1, ...).
"$cli" list >"$out/list.txt" 2>&1 || fail "cuda-lessons-cli list exited with $?"
firsts=$(awk '$1 ~ /^[0-9]+\.1$/ {print $1}' "$out/list.txt" | tr '\n' ' ')
[ -n "$firsts" ] || fail "no chapters in cuda-lessons-cli list"

start_xvfb

# The screenshots' names and the Python helpers of this script's checks (drive(), gui_xvfb.sh).
shot_prefix=keyboard
helpers="firsts = \"$firsts\".split()
if os.environ[\"KEYBOARD_LANG\"] != \"en\":
    firsts = [f for f in firsts if f in (\"1.1\", \"3.1\", \"6.1\", \"10.1\")]
tab = lambda: press_focus(\"Tab\")"

for lang in en zh; do
    export KEYBOARD_LANG=$lang
    echo "== every chapter by keyboard alone ($lang)"
    drive "walk-$lang" '
if state(10)["state"]["first_run_page"]:
    key("Escape")
    state(10, lambda d: not d["state"]["first_run_page"])
focus_shot = False
for label in firsts:
    d = tab_to("lesson_filter")
    key("Return")  # into the filter
    state(10, lambda d: d["state"]["text_input"])
    key("ctrl+a")
    typed(label)
    key("Return")  # opens the lesson of that label
    d = state(10, lambda d: d["state"]["label"] == label)
    # Tab through the whole page once.
    stops = d["state"]["focus_stops"]
    seen, last = [], "lesson_filter"
    W, H = d["state"]["window"]
    for _ in range(stops + 20):  # (the page may add controls as it settles: up to the filter)
        f, d = tab()
        if not f: sys.exit("%s: no focus shown after Tab (after %s)" % (label, last))
        if f == last: sys.exit("%s: Tab stuck at %s" % (label, f))
        if f in d:
            x0, y0, x1, y1 = d[f]
            if y1 < 0 or y0 > H or x1 < 0 or x0 > W:
                sys.exit("%s: the focused %s is outside the window: %s" % (label, f, d[f]))
        seen.append(f)
        last = f
        if f == "lesson_filter": break
        if not focus_shot and f.startswith("glance_copy"):
            shot("focus-on-a-button"); focus_shot = True
    for wanted in ("lang_en", "lang_zh", "hide_answers", "tab_source", "scale",
                   "presenter_toggle"):
        if wanted not in seen: sys.exit("%s: Tab never reached %s (%s)" % (label, wanted, seen))
    if seen.index("tab_source") > seen.index("scale"):
        sys.exit("%s: not in reading order: %s" % (label, seen))
    if label == "3.1":  # a GPU step: Space opens its SASS tab, and its source again
        tab_to("tab_sass")
        key("space")
        state(10, lambda d: d["state"]["code_tab"] == 2)
        key("shift+Tab"); key("shift+Tab")
        d = state(10, lambda d: d["state"]["focused"] == "tab_source")
        key("space")
        state(10, lambda d: d["state"]["code_tab"] == 0)
        last_focus[0] = "tab_source"
    print("  %s: %d controls by Tab" % (label, len(seen)))
if not focus_shot: sys.exit("no button was focused for the screenshot")
' --lang "$lang" --scale 1

    echo "== evidence and the editor by keyboard ($lang)"
    drive "evidence-$lang" '
tab_to("evidence_header"); key("space")
# Tab finds the buttons of the section once it is drawn open (the profile buttons are in the
# focus ring from the next frame on; nothing is profiling, so neither is disabled).
state(10, lambda d: "profile_recorded" in d and d["state"]["evidence_needs_gpu"])
d = tab_to("profile_recorded")
if not d["state"]["evidence_needs_gpu"]: sys.exit("Profile this step does not say a GPU is missing")
key("space")
d = state(30, lambda d: d["state"]["evidence_first_explained"] != "")
if "__" in d["state"]["evidence_first_explained"]:
    sys.exit("a raw counter name: " + d["state"]["evidence_first_explained"])
if not d["state"]["evidence_rule"]: sys.exit("no rule line over the counters")
# For the screenshot only: the counters under the button, wheeled into view (wheel(): every
# step taken by the window).
x0, y0, x1, y1 = d["profile_recorded"]
wheel(int(x0) + 5, int(y0) - 40, 12)
shot("evidence")
tab_to("tab_exercise"); key("space")
state(10, lambda d: d["state"]["code_tab"] == 3)
tab_to("exercise_maximise"); key("space")
d = state(10, lambda d: d["state"]["editor_maximised"] and not d["state"]["list_pane"])
shot("editor-maximised")
key("Escape")
state(10, lambda d: not d["state"]["editor_maximised"])
' --lesson 4.2 --lang "$lang" --scale 1

    echo "== presenter mode at 1280x720, scale 2 ($lang)"
    set_settings '{"window_width": 1280, "window_height": 720}'
    drive "presenter-$lang" '
d = state(30, lambda d: d["state"]["presenter"] and d["state"]["sections"] >= 2)
if d["state"]["window"][0] > 1300: sys.exit("window %s" % d["state"]["window"])
# Down: a section longer than its pane scrolls before the next one comes.
view = lambda d: (d["state"]["section"], d["state"]["presenter_scroll_y"],
                  d["state"]["presenter_room"])
def presenter_settled():
    """The state once two frames agree on the section, its scroll and the room below it: the
    first frame of a section measures its room by the section before (ImGui sizes the content
    of a pane a frame late: 710 px in the first frame of a section that fits, 0 in the next)."""
    first = [state(10)]
    wake = waker()  # the next frame now, not the idle one
    def still(d):
        if d["state"]["frame"] == first[0]["state"]["frame"]:
            wake()
            return False
        if view(d) == view(first[0]): return True
        first[0] = d
        return False
    return state(10, still)
scrolled = False
for _ in range(20):
    before = presenter_settled()["state"]
    key("Down")
    # What Down did, once drawn: the section scrolled, or the next one shown (Down is pressed
    # only before the end of the last section; one that does neither ends the script here).
    after = state(10, lambda d: view(d)[:2] != (before["section"], before["presenter_scroll_y"]))
    after = after["state"]
    if before["presenter_room"] > 0.5:
        if after["section"] != before["section"]:
            sys.exit("Down left section %d with %d px unread" % (before["section"], before["presenter_room"]))
        if after["presenter_scroll_y"] <= before["presenter_scroll_y"]:
            sys.exit("Down did not scroll section %d" % before["section"])
        if not scrolled: shot("presenter-section-scrolled")
        scrolled = True
    after = presenter_settled()["state"]
    if after["section"] + 1 >= after["sections"] and after["presenter_room"] <= 0.5: break
if not scrolled: sys.exit("no section of this page was longer than its pane")
tab_to("view_changed"); key("space")
d = state(10, lambda d: d["state"]["presenter_view"] == 1 and d["state"]["presenter_code_lines"] > 0)
shot("presenter-changed-code")
tab_to("view_sass"); key("space")
d = state(10, lambda d: d["state"]["presenter_view"] == 2 and d["state"]["listing_lines"] > 0)
shot("presenter-sass")
' --lesson 5.8 --lang "$lang" --scale 2 --presenter
    set_settings '{"window_width": 1500, "window_height": 940}'
done
n=$(ls "$out"/keyboard-*.png 2>/dev/null | wc -l)
[ "$n" -ge 12 ] || fail "$n screenshots, 12 expected"
echo "PASSED: $n screenshots in $out"
