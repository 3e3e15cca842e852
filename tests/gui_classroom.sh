#!/usr/bin/env bash
# The rough edges of issue 42 that a real window shows, under Xvfb without a GPU, the real
# cuda-lessons with its real worker; in English, then in Chinese:
#  1. lesson 4.2's text sets its inline code in the monospace font;
#  2. the lesson list's tooltip stays within the list (it covered the lesson text);
#  3. the exercise editor maximised, its compiler messages beside it: a kernel typed with
#     xdotool's quick keys (no hold: ImGui 1.86 read only a key's state at each frame, so a
#     press and its release between two frames were lost, Return among them) keeps every line
#     in order, and its compile errors are listed beside the editor; Esc brings the page back;
#  4. presenter mode at 1280x720 and scale 2: lesson 5.8, which rewrites most of its file,
#     shows its changed code from its kernel;
#  5. where this build's PTX carries line information (-lineinfo), a source line linked to its
#     instructions (said and skipped where it carries none, as the project's build).
# Screenshots (F12) go to OUT_DIR (classroom-*.png).
# Usage: gui_classroom.sh CUDA_LESSONS OUT_DIR     (exit 77: skipped, no Xvfb)
set -u
app=$1 out=$2
source "$(dirname "$0")/gui_xvfb.sh"
gui_prepare

start_xvfb 331 370

# settings W H: the window's size at the next start (the welcome page closed).
settings() {
    printf '{"first_run_closed": true, "window_width": %d, "window_height": %d}\n' "$1" "$2" \
        >"$out/config/cuda-lessons/settings.json"
}

# The screenshots' names (drive(), gui_xvfb.sh); the mouse stays where the checks put it.
shot_prefix=classroom park_mouse=False

for lang in en zh; do
    echo "== lesson 4.2: inline code, the list's tooltip, the maximised editor ($lang)"
    settings 1500 940
    drive "page-$lang" '
d = state(30, lambda d: d["state"]["inline_code_runs"] > 0 and "inline_code" in d)
x0, y0, x1, y1 = d["inline_code"]
if not (x1 > x0 and y1 > y0): sys.exit("inline code drawn as %s" % d["inline_code"])
xdo("mousemove", "1", "1")
shot("inline-code")
# The list tooltip: inside the list, under the entry.
entries = sorted((d[k][1], k) for k in d if k.startswith("lesson_") and k != "lesson_filter"
                 and d[k][1] > d["lesson_filter"][3])
entry = entries[2][1]  # the third in view from the top
x, y = center(entry, d)
xdo("mousemove", x, y)
d = state(10, lambda d: d["state"]["list_tooltip"] and len(d["state"]["tooltip"]) == 4)
tip, filt = d["state"]["tooltip"], d["lesson_filter"]
if tip[2] > d["list_hide"][2] + 40: sys.exit("the tooltip %s reaches past the list %s" % (tip, d["list_hide"]))
if tip[1] < d[entry][3] - 1: sys.exit("the tooltip %s is not under its entry %s" % (tip, d[entry]))
xdo("mousemove", "1", "1")
# The exercise: its tab and the maximise button clicked at once (no hold).
quick_click("tab_exercise")
state(10, lambda d: d["state"]["code_tab"] == 3 and "exercise_maximise" in d)
quick_click("exercise_maximise")
d = state(10, lambda d: d["state"]["editor_maximised"] and not d["state"]["list_pane"])
# A kernel with two mistakes, typed with quick keys into the emptied editor.
quick_click("exercise_editor")
state(10, lambda d: d["state"]["text_input"])
xdo("key", "ctrl+a"); xdo("key", "BackSpace")
lines = ["__global__ void gemv_29_warp_per_row_kernel(const float* __restrict__ a,",
         "    const float* __restrict__ x, float* __restrict__ y, int m, int n) {",
         "    const int row = blockIdx.x * blockDim.x + threadIdx.x",
         "    if (row < m) y[row] = missing_sum;",
         "}"]
# Return as "\r": xdotool types "\n" as Linefeed, a key GLFW does not know (nor does a keyboard
# send it). No delay: the whole kernel reaches the window between two frames.
xdo("type", "--delay", "0", "\r".join(lines) + "\r")
d = state(20, lambda d: not d["state"]["exercise_dirty"])
time.sleep(0.5)
d = state(10, lambda d: not d["state"]["exercise_dirty"])
saved = open(d["state"]["exercise_file"]).read().splitlines()
if saved[:len(lines)] != lines:
    sys.exit("the typed kernel was saved as %r" % saved[:8])
xdo("mousemove", "1", "1")
click("exercise_compile")
d = state(90, lambda d: d["state"]["exercise_compile"] == "error" and d["state"]["exercise_marked_lines"] >= 1)
if d["exercise_messages_pane"][0] < d["exercise_editor"][2] - 1:
    sys.exit("the messages %s are not beside the editor %s" % (d["exercise_messages_pane"], d["exercise_editor"]))
xdo("mousemove", "1", "1")
shot("editor-maximised")
xdo("key", "Escape")
state(10, lambda d: not d["state"]["editor_maximised"] and d["state"]["list_pane"])
' --lesson 4.2 --lang "$lang" --scale 1

    echo "== presenter mode at 1280x720, scale 2: lesson 5.8 changed code from its kernel ($lang)"
    settings 1280 720
    drive "presenter-$lang" '
state(30, lambda d: d["state"]["presenter"] and "view_changed" in d)
click("view_changed")
d = state(10, lambda d: d["state"]["presenter_view"] == 1 and d["state"]["presenter_code_from"] > 1
          and d["state"]["presenter_scroll_y"] > 0)
shot("rewritten-changed-code")
' --lesson 5.8 --lang "$lang" --scale 2 --presenter

    echo "== a source line linked to its instructions ($lang)"
    settings 1500 940
    # The code pane given most of the column (the line between text and code dragged up).
    sed -i 's/}$/, "text_share": 0.2}/' "$out/config/cuda-lessons/settings.json"
    drive "linked-$lang" '
d = state(30, lambda d: d["state"]["code_tab"] == 1 and d["state"]["listing_lines"] > 0)
if not d["state"]["listing_line_info"]:
    print("skipped: this build'"'"'s PTX carries no line information (not compiled with -lineinfo)")
else:
    time.sleep(1)  # the source side scrolls to its kernel once drawn
    for attempt in range(40):
        d = state(10)
        pane = d["linked_source_pane"]
        rows = sorted((k for k in d if k.startswith("linked_source_row_")
                       and d[k][1] >= pane[1] and d[k][3] <= pane[3]),  # those in view
                      key=lambda k: int(k.split("_")[-1]))
        if attempt >= len(rows): break
        click(rows[attempt])
        d = state(3, lambda d: True)
        if d["state"]["linked_listing_lines"] > 0: break
    if d["state"]["linked_listing_lines"] <= 0: sys.exit("no source line linked to an instruction")
    xdo("mousemove", "1", "1")
    shot("source-linked-to-ptx")
' --lesson 4.2 --lang "$lang" --scale 1 --code-tab ptx
done
n=$(ls "$out"/classroom-*.png 2>/dev/null | wc -l)
[ "$n" -ge 6 ] || fail "$n screenshots, 6 expected"
echo "PASSED: $n screenshots in $out"
