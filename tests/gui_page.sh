#!/usr/bin/env bash
# A lesson page in the page model, under Xvfb without a GPU, as a student and a teacher use it:
#  1. lesson 3.6 in English and in Chinese: the page is drawn in the model, every figure resolved
#     from the H200's recordings (the footer names it), the chapter at a glance closed there and
#     open on the chapter's first lesson (3.1) with one row per step;
#  2. a click on "Evidence" opens it, and the page remembers it: after a restart it is open;
#  3. presenter mode at 1280x720 and scale 2, in both languages: Next section shows the
#     prediction, which fits its pane without scrolling, the next the result row with the
#     reason.
# Screenshots of each go to OUT_DIR (page-*.png).
# Usage: gui_page.sh CUDA_LESSONS OUT_DIR     (exit 77: skipped, no Xvfb)
set -u
app=$1 out=$2
source "$(dirname "$0")/gui_xvfb.sh"
gui_prepare

start_xvfb

# The first start's welcome page is closed in the settings, so the page itself is in view.
printf '{"first_run_closed": true}\n' >"$out/config/cuda-lessons/settings.json"

# The screenshots' names and the Python helpers of this script's checks (drive(), gui_xvfb.sh).
shot_prefix=page
helpers='
click = quick_click

def visible(d, rect_name, pane):
    """Whether rect_name lies inside pane (a header folded below the fold is clipped)."""
    if rect_name not in d or pane not in d: return False
    x0, y0, x1, y1 = d[rect_name]
    p0, q0, p1, q1 = d[pane]
    return y0 >= q0 and y1 <= q1

def scroll_to(rect_name, pane):
    """Scrolls pane down with the mouse wheel until rect_name is inside it."""
    for _ in range(60):
        d = state(10, lambda d: pane in d)
        if visible(d, rect_name, pane): return
        x0, y0, x1, y1 = d[pane]
        xdo("mousemove", str(wx + int((x0 + x1) / 2)), str(wy + int((y0 + y1) / 2)),
            "click", "--repeat", "2", "--delay", "20", "5")
        time.sleep(0.15)
    sys.exit("%s never scrolled into %s" % (rect_name, pane))
'

for lang in en zh; do
    echo "== lesson 3.6 in the page model ($lang)"
    # Every section folded at the start of each language's run (the English run opened one).
    set_settings '{"unfolded": []}'
    drive "page-$lang" '
d = state(30, lambda d: d["state"]["page_in_model"])
s = d["state"]
# A build without machine code (CUDA off) has no SASS to count: only those may stay unresolved.
allowed = 0 if s["build_has_sass"] else s["page_unresolved_sass"]
if s["page_unresolved"] != allowed:
    sys.exit("%d references did not resolve" % s["page_unresolved"])
if "NVIDIA H200" not in s["page_footer"]: sys.exit("footer: " + s["page_footer"])
if s["glance_rows"] != 0: sys.exit("the chapter at a glance is open on lesson 3.6")
if "fold_Evidence" not in d: sys.exit("no Evidence section to unfold")
shot("folded")
# A click can land while the pane still scrolls: wait until the page draws Evidence open, and
# click once more if it did not take.
for attempt in range(3):
    scroll_to("fold_Evidence", "text_pane")
    click("fold_Evidence")
    try:
        d = state(5, lambda d: "Evidence" in d["state"]["page_open"])
        break
    except SystemExit:
        if attempt == 2: raise
shot("unfolded")
' --lesson 3.6 --lang "$lang" --scale 1
    grep -q '"reduce/v4-warp-shuffle#Evidence"' "$out/config/cuda-lessons/settings.json" ||
        fail "the opened Evidence of 3.6 ($lang) was not remembered"
    drive "first-$lang" '
d = state(30, lambda d: d["state"]["glance_rows"] > 0)
if d["state"]["glance_rows"] != 9: sys.exit("%d rows at a glance" % d["state"]["glance_rows"])
shot("glance")
' --lesson 3.1 --lang "$lang" --scale 1
    echo "== presenter, 1280x720, scale 2 ($lang)"
    set_settings '{"window_width": 1280, "window_height": 720}'
    drive "presenter-$lang" '
d = state(30, lambda d: d["state"]["presenter"] and d["state"]["sections"] >= 3)
if d["state"]["window"][0] > 1300: sys.exit("window %s" % d["state"]["window"])
click("section_next")
d = state(10, lambda d: d["state"]["section"] == 1)
if not d["state"]["section_fits"]:
    sys.exit("the prediction needs scrolling at 1280x720, scale 2")
shot("presenter")
click("section_next")  # the result row and the reason (it may scroll)
d = state(10, lambda d: d["state"]["section"] == 2)
shot("presenter-result")
' --lesson 3.6 --lang "$lang" --scale 2 --presenter
done
shots=$(ls "$out"/page-*.png 2>/dev/null | wc -l)
[ "$shots" -ge 10 ] || fail "$shots screenshots written, 10 expected"
echo "PASSED: $shots screenshots in $out"
