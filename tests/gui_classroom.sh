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
#  5. the exercise editor in a window of its own (a second GLFW window, its own ImGui context):
#     at least 1200 px wide, its compiler messages beside it; a kernel typed there is saved and
#     compiled, the page shows the same file read only (typing there changes nothing), and
#     "Back into the page" closes the window;
#  6. the project's build compiles its PTX with -lineinfo: a source line linked to its
#     instructions.
# Screenshots (F12) go to OUT_DIR (classroom-*.png).
# Usage: gui_classroom.sh CUDA_LESSONS OUT_DIR [LANGS]     (exit 77: skipped, no Xvfb)
# LANGS: the languages walked, "en zh" unless given (the ImGui 1.90.1 build: "en" alone,
# tests/CMakeLists.txt).
set -u
app=$1 out=$2 langs=${3:-en zh}
source "$(dirname "$0")/gui_xvfb.sh"
gui_prepare

# Whether this build's worker compiles a kernel (NVRTC): a build with CUDA off
# (check-imgui190.sh) cannot, and its compile steps are then said and skipped.
cli=$(dirname "$app")/cuda-lessons-cli
[ -x "$cli" ] || cli=$(dirname "$app")/../cli/cuda-lessons-cli
printf '__global__ void probe_kernel() {}\n' >"$out/probe.cu"
if "$cli" run gemv/warp-per-row --kernel "$out/probe.cu" 2>&1 | grep -q "built without CUDA"; then
    export CLASSROOM_CAN_COMPILE=0
else
    export CLASSROOM_CAN_COMPILE=1
fi

start_xvfb

# settings W H: the window's size at the next start (the welcome page closed).
settings() {
    printf '{"first_run_closed": true, "window_width": %d, "window_height": %d}\n' "$1" "$2" \
        >"$out/config/cuda-lessons/settings.json"
}

# The screenshots' names (drive(), gui_xvfb.sh); the mouse stays where the checks put it.
shot_prefix=classroom park_mouse=False
# The kernel typed into an emptied editor, its undefined name `missing`: two mistakes over five
# lines in English; in Chinese, whose pass is for the words and the layout, one mistake over two
# lines (the software renderer draws a frame or more for each character).
helpers='def typed_kernel(missing):
    if os.environ["CLASSROOM_LANG"] == "en":
        return ["__global__ void gemv_29_warp_per_row_kernel(const float* a,",
                "    const float* x, float* y, int m, int n) {",
                "    int row = blockIdx.x * blockDim.x + threadIdx.x",
                "    if (row < m) y[row] = %s;" % missing,
                "}"]
    return ["__global__ void gemv_29_warp_per_row_kernel(float* y) {",
            "    y[0] = %s; }" % missing]'

for lang in $langs; do
    export CLASSROOM_LANG=$lang
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
# A kernel with mistakes, typed with quick keys into the emptied editor.
quick_click("exercise_editor")
state(10, lambda d: d["state"]["text_input"])
xdo("key", "ctrl+a"); xdo("key", "BackSpace")
lines = typed_kernel("missing_sum")
d = type_saved(lines, "the typed kernel")
xdo("mousemove", "1", "1")
click("exercise_compile")
if os.environ["CLASSROOM_CAN_COMPILE"] == "1":
    d = state(90, lambda d: d["state"]["exercise_compile"] == "error" and d["state"]["exercise_marked_lines"] >= 1)
else:
    print("compile not checked: this build has no CUDA (its worker cannot compile)")
    d = state(10)
if d["exercise_messages_pane"][0] < d["exercise_editor"][2] - 1:
    sys.exit("the messages %s are not beside the editor %s" % (d["exercise_messages_pane"], d["exercise_editor"]))
xdo("mousemove", "1", "1")
shot("editor-maximised")
xdo("key", "Escape")
state(10, lambda d: not d["state"]["editor_maximised"] and d["state"]["list_pane"])
' --lesson 4.2 --lang "$lang" --scale 1

    echo "== the exercise editor in a window of its own ($lang)"
    settings 1500 940
    drive "popout-$lang" '
time.sleep(1)  # the page laid out (its first frames move the tabs as the fonts come)
for attempt in range(3):
    click("tab_exercise")
    try:
        if json.load(open(rects))["state"]["code_tab"] == 3: break
    except (OSError, ValueError):
        pass
state(10, lambda d: d["state"]["code_tab"] == 3 and "exercise_popout" in d)
click("exercise_popout")
d = state(20, lambda d: d["state"]["editor_popout"] and "popout_exercise_editor" in d
          and "popout_exercise_messages_pane" in d)
pwin = subprocess.run(["xdotool", "search", "--sync", "--name", "exercise editor"],
                      capture_output=True, text=True, check=True).stdout.split()[0]
pgeo = dict(l.split("=") for l in subprocess.run(
    ["xdotool", "getwindowgeometry", "--shell", pwin], capture_output=True, text=True,
    check=True).stdout.split())
px, py, pw = int(pgeo["X"]), int(pgeo["Y"]), int(pgeo["WIDTH"])
if pw < 1200: sys.exit("the editor window is %d px wide, under 1200" % pw)
if d["popout_exercise_messages_pane"][0] < d["popout_exercise_editor"][2] - 1:
    sys.exit("in its window the messages %s are not beside the editor %s"
             % (d["popout_exercise_messages_pane"], d["popout_exercise_editor"]))
def pclick(rect_name):  # a control of the editor window, held a moment
    d = state(10, lambda d: rect_name in d)
    x0, y0, x1, y1 = d[rect_name]
    xdo("mousemove", str(px + int((x0 + x1) / 2)), str(py + int((y0 + y1) / 2))); time.sleep(0.2)
    xdo("mousedown", "1"); time.sleep(0.12); xdo("mouseup", "1"); time.sleep(0.3)
xdo("windowfocus", pwin)
pclick("popout_exercise_editor")
state(10, lambda d: d["state"]["popout_text_input"])
xdo("key", "ctrl+a"); xdo("key", "BackSpace")
# (Not the kernel of the page drive, which the file already holds: this one is typed here.)
lines = ["// typed in the editor window"] + typed_kernel("other_missing_sum")
# (Two windows are drawn for each frame of keys here: it may take a while longer.)
d = type_saved(lines, "the kernel typed in the editor'"'"'s window")
pclick("popout_exercise_compile")
if os.environ["CLASSROOM_CAN_COMPILE"] == "1":
    d = state(90, lambda d: d["state"]["exercise_compile"] == "error" and d["state"]["exercise_marked_lines"] >= 1)
else:
    print("compile not checked: this build has no CUDA (its worker cannot compile)")
xdo("mousemove", "1", "1")
shot("own-window")  # F12 in the focused window: the editor'"'"'s
# The page shows the same text, read only: typing there changes nothing.
xdo("windowfocus", win)
d = state(10, lambda d: "exercise_editor" in d)
x0, y0, x1, y1 = d["exercise_editor"]
xdo("mousemove", str(wx + int((x0 + x1) / 2)), str(wy + int(y0) + 20)); time.sleep(0.2)
xdo("mousedown", "1"); time.sleep(0.12); xdo("mouseup", "1"); time.sleep(0.3)
xdo("type", "--delay", "0", "zzz"); time.sleep(1)
d = state(10)
if d["state"]["exercise_dirty"] or open(d["state"]["exercise_file"]).read().splitlines()[:len(lines)] != lines:
    sys.exit("the page'"'"'s read-only view of the file took typing")
xdo("mousemove", "1", "1")
shot("page-follows")
# Back into the page by the keyboard alone: Tab walks the window'"'"'s own controls (its focus
# ring, apart from the page'"'"'s), Enter presses "Back into the page"; the window closes.
xdo("windowfocus", pwin)
xdo("mousemove", str(px + 5), str(py + 5))
d = state(10)
if d["state"]["popout_text_input"]:  # its editor has the keys: Ctrl+Tab leaves it
    typed_before = open(d["state"]["exercise_file"]).read()
    press_focus("ctrl+Tab")
    d = state(10, lambda d: not d["state"]["popout_text_input"])
    if open(d["state"]["exercise_file"]).read() != typed_before:
        sys.exit("leaving the editor with Ctrl+Tab changed the file")
tab_to("popout_exercise_popin", limit=40)
key("Return")
state(10, lambda d: not d["state"]["editor_popout"])
left = subprocess.run(["xdotool", "search", "--name", "exercise editor"], capture_output=True,
                      text=True).stdout.split()
if left: sys.exit("the editor'"'"'s window is still there: %s" % left)
' --lesson 4.2 --lang "$lang" --scale 1

    echo "== presenter mode at 1280x720, scale 2: lesson 5.8 changed code from its kernel ($lang)"
    settings 1280 720
    drive "presenter-$lang" '
state(30, lambda d: d["state"]["presenter"] and "view_changed" in d)
time.sleep(1)  # the page laid out (its first frames move the tabs as the fonts come)
for attempt in range(3):
    click("view_changed")
    try:
        if json.load(open(rects))["state"]["presenter_view"] == 1: break
    except (OSError, ValueError):
        pass
d = state(10, lambda d: d["state"]["presenter_view"] == 1 and d["state"]["presenter_code_from"] > 1
          and d["state"]["presenter_scroll_y"] > 0)
shot("rewritten-changed-code")
' --lesson 5.8 --lang "$lang" --scale 2 --presenter

    echo "== a source line linked to its instructions ($lang)"
    settings 1500 940
    # The code pane given most of the column (the line between text and code dragged up).
    sed -i 's/}$/, "text_share": 0.2}/' "$out/config/cuda-lessons/settings.json"
    drive "linked-$lang" '
d = state(30, lambda d: d["state"]["code_tab"] == 1 and "code_pane" in d)
time.sleep(1)
d = state(10)
if d["state"]["listing_lines"] == 0:  # a build with CUDA off (check-imgui190.sh) has no PTX
    print("skipped: this build has no machine code (CUDA off)")
elif not d["state"]["listing_line_info"]:
    sys.exit("the PTX carries no line information: cmake/MachineCode.cmake compiles it with -lineinfo")
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
wanted=$((5 * $(wc -w <<<"$langs")))
[ "$n" -ge "$wanted" ] || fail "$n screenshots, $wanted expected"
echo "PASSED: $n screenshots in $out"
