# The Python helpers of the GUI scripts that drive the app by its positions file (gui_page.sh,
# gui_keyboard.sh, gui_parsons.sh, gui_classroom.sh, through drive() in gui_xvfb.sh): the app's
# state, keys and clicks through xdotool, the focus moved by Tab, screenshots by F12. A script's
# checks run after `start()`, which waits for the window, gives it the keyboard focus and sets
# `d` (the first state), `win`, `wx` and `wy` (the window's place on the screen).
import glob, inspect, json, os, shutil, subprocess, sys, time

rects = pid = out = name = prefix = win = None
wx = wy = 0
shots = 0
park_mouse = True


# Every wait for the window is a hang guard, not a verdict on speed: a loaded machine (every core
# busy building or testing beside the GUI, software OpenGL) may take seconds for a frame, so the
# timeouts the scripts give are stretched this many times. A wait that is met returns at once.
WAIT_SCALE = float(os.environ.get("CUDA_LESSONS_GUI_WAIT_SCALE", "6"))


def state(timeout=60.0, test=lambda d: True):
    """The newest state (with the rectangles) passing `test`, polled for up to `timeout` s (times
    WAIT_SCALE); else the script ends, naming the line of the check that waited and the last
    state read."""
    end, last, checked = time.time() + timeout * WAIT_SCALE, None, time.time()
    while time.time() < end:
        try:
            last = json.load(open(rects))
            if "state" in last and test(last):
                return last
        except (OSError, ValueError):
            pass
        if time.time() - checked > 1:  # an app that has ended draws nothing more: no wait
            checked = time.time()
            if app_ended():
                sys.exit("%s, line %d: the app ended before the window reached the state wanted "
                         "(last: %s)" % (name, inspect.stack()[1].lineno,
                                         json.dumps(last["state"] if last and "state" in last
                                                    else None)[-900:]))
        time.sleep(0.05)
    print(stuck_report(), file=sys.stderr)
    sys.exit("%s, line %d: the window never reached the state wanted in %.0f s (last: %s)"
             % (name, inspect.stack()[1].lineno, timeout * WAIT_SCALE,
                json.dumps(last["state"] if last and "state" in last else None)[-900:]))


def stuck_report():
    """What the app's threads and the X server were doing when a wait ran out: for each, its
    scheduling state (R running, S sleeping, D in the disk), the kernel function it sleeps in,
    and the CPU time it took over one second; the machine's load and the positions file's age.
    A window that drew no frame for a minute (once, under two clean clones' suites at once)
    could not be explained from the last state alone."""
    def threads(p):
        found = {}
        for stat in glob.glob("/proc/%s/task/*/stat" % p):
            try:
                with open(stat) as f:
                    comm, rest = f.read().rsplit(")", 1)
                fields = rest.split()
                with open(stat[:-4] + "wchan") as f:
                    wchan = f.read().strip() or "-"
                found[stat.split("/")[4]] = (comm.split("(", 1)[1], fields[0], wchan,
                                             int(fields[11]) + int(fields[12]))
            except (OSError, IndexError, ValueError):
                pass
        return found
    lines = []
    try:
        xvfb = subprocess.run(["pgrep", "-x", "Xvfb"], capture_output=True, text=True).stdout
    except OSError:
        xvfb = ""
    watched = [("app", pid)] + [("Xvfb", p) for p in xvfb.split()]
    before = {who_p: threads(who_p[1]) for who_p in watched}
    time.sleep(1)
    for who, p in watched:
        after = threads(p)
        for tid, (comm, st, wchan, ticks) in sorted(after.items()):
            took = ticks - before[(who, p)].get(tid, (0, 0, 0, ticks))[3]
            lines.append("  %s %s thread %s (%s): %s in %s, %d ticks in 1 s"
                         % (who, p, tid, comm, st, wchan, took))
    try:
        with open("/proc/loadavg") as f:
            lines.append("  load: " + f.read().strip())
        age = time.time() - os.path.getmtime(rects)
        frame = json.load(open(rects))["state"].get("frame")
        lines.append("  positions file written %.1f s ago, at frame %s" % (age, frame))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return "the app and the X servers when the wait ran out:\n" + "\n".join(lines)


def app_ended():
    """Whether the app (pid) has exited: gone, or a zombie its shell has not reaped yet."""
    if not pid:
        return False
    try:
        with open("/proc/%s/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def xdo(*args):
    subprocess.run(["xdotool", *args], check=True)


def key(k):
    """Pressed and released at once; the app queues keys and gives them to ImGui a frame at a
    time (app/panels/input_trickle.h), so none is lost, and the pause lets the app draw the
    press before the next step looks at its state. (Held, with a sleep between keydown and
    keyup, a loaded machine's slow frames let ImGui's own key repeat press it again.)"""
    xdo("key", k); time.sleep(0.15)


def tap(k):
    """A press and its release at once, for a step that waits for the key's effect itself."""
    xdo("key", k)


def settle():
    """After tap()s waited for by their effect (press_focus): the last one's release drawn too
    before the next key means something (lesson 4.2's Parsons lines lost a Delete pressed at
    once after the Tab that focused them)."""
    time.sleep(0.3)


def typed(text):
    for ch in text:
        key({".": "period", "/": "slash", "-": "minus"}.get(ch, ch))


def type_saved(lines, what):
    """Types `lines` into the focused exercise editor with quick keys, no delay (the whole kernel
    reaches the window between two frames), and waits until the exercise's file holds them and
    the editor is clean: saved once typing pauses. Return goes as "\\r": xdotool types "\\n" as
    Linefeed, a key GLFW does not know (nor does a keyboard send it). A key and a character
    never share a frame (InputTrickle), so each shifted character takes three: the wait is a
    hang guard. Exits naming `what` with what was saved when it runs out."""
    xdo("type", "--delay", "0", "\r".join(lines) + "\r")
    end, saved = time.time() + 150 * WAIT_SCALE, []
    while time.time() < end:
        d = state(10)
        saved = open(d["state"]["exercise_file"]).read().splitlines()
        if not d["state"]["exercise_dirty"] and saved[:len(lines)] == lines:
            return d
        time.sleep(0.5)
    sys.exit("%s was saved as %r" % (what, saved[:8]))

def waker():
    """For a wait whose condition needs a frame newer than the last one read: an idle window
    draws its next frame on input, or after up to 2 s. The function returned presses F20, a key
    nothing in the app is bound to (no character, no shortcut, no navigation), which wakes the
    window for a frame at once; called at each poll without a newer frame, it presses again only
    after a second (a loaded machine's slow frame is not pressed for again and again)."""
    last = [0.0]

    def wake():
        if time.time() - last[0] > 1.0:
            xdo("key", "F20")
            last[0] = time.time()
    return wake


def settled(rect_name, timeout=10.0):
    """The newest state in which rect_name is where it was in an earlier frame ("frame": ImGui's
    frame count). A layout may still be settling in the first frame that shows a control (a tab's
    first frame, a scrollbar that appears in the next): a loaded machine's script can read that
    frame, and a click at the control's first place would miss it. The window is woken for the
    next frame (waker())."""
    first = [state(timeout, lambda d: rect_name in d)]
    wake = waker()

    def still(d):
        if rect_name not in d:
            return False
        if d["state"].get("frame") == first[0]["state"].get("frame"):
            wake()
            return False
        if d[rect_name] == first[0][rect_name]:
            return True
        first[0] = d  # moved: wait for it to stay again
        return False
    return state(timeout, still)


def center(rect_name, d=None):
    """The screen position of the middle of rect_name, as xdotool takes it: where the layout has
    settled, unless the caller gives the state to read it from."""
    d = d or settled(rect_name)
    x0, y0, x1, y1 = d[rect_name]
    return str(wx + int((x0 + x1) / 2)), str(wy + int((y0 + y1) / 2))


def pointer_seen(x, y, timeout=10.0):
    """Moves the mouse to (x, y) in the window and waits for a frame that saw it there (the
    state's "mouse": ImGui 1.86 reads the pointer once a frame, so a press, a wheel or a move
    sent before a frame has seen the pointer's new place acts where that frame reads it: a
    loaded machine's frame can take every step of a gesture at once); that state."""
    xdo("mousemove", str(wx + x), str(wy + y))
    return state(timeout, lambda d: [round(v) for v in d["state"]["mouse"]] == [x, y])


def wheel(x, y, clicks, button="5", timeout=10.0):
    """The wheel turned `clicks` steps (button 5: down, 4: up) with the pointer at (x, y) in the
    window, once a frame has seen the pointer there; waits until the window has taken every step
    (the state's wheel_taken), each of them where the pointer is. Returns (the state before the
    wheel, the state after it)."""
    before = pointer_seen(x, y, timeout)
    taken = before["state"]["wheel_taken"]
    xdo("click", "--repeat", str(clicks), "--delay", "5", button)
    sign = -1 if button == "5" else 1
    after = state(timeout, lambda d: (d["state"]["wheel_taken"] - taken) * sign >= clicks - 0.01)
    return before, after


def drag(rect_name, done, step_px=None, steps=12, timeout=10.0):
    """Presses the mouse on the middle of rect_name (where it has settled), moves it down a step
    at a time (a quarter of the control's height unless step_px), each step seen by a frame,
    until done(state) holds, and lets go; the state in which done held. Each part of the drag is
    waited for in the window's state (the pointer, the button, the control it holds), never for
    a time. Exits when rect_name does not take the press or done never holds."""
    d = settled(rect_name, timeout)
    x0, y0, x1, y1 = d[rect_name]
    x, y = int((x0 + x1) / 2), int((y0 + y1) / 2)
    step_px = step_px or max(1, int((y1 - y0) / 4))
    pointer_seen(x, y, timeout)
    xdo("mousedown", "1")
    state(timeout, lambda d: d["state"]["mouse_down"] and d["state"]["active"] == rect_name)
    held = None
    for i in range(1, steps + 1):
        d = pointer_seen(x, y + i * step_px, timeout)
        if done(d):
            held = d
            break
    xdo("mouseup", "1")
    state(timeout, lambda d: not d["state"]["mouse_down"])
    if held is None:
        sys.exit("%s, line %d: dragging %s %d px down never did what was wanted (last: %s)"
                 % (name, inspect.stack()[1].lineno, rect_name, steps * step_px,
                    json.dumps(d["state"])[-600:]))
    return held


def click(rect_name):  # held a moment, as a person clicks
    x, y = center(rect_name)
    xdo("mousemove", x, y); time.sleep(0.2)
    xdo("mousedown", "1"); time.sleep(0.12); xdo("mouseup", "1"); time.sleep(0.3)


def quick_click(rect_name):  # press and release at once, as xdotool click does
    x, y = center(rect_name)
    xdo("mousemove", x, y); time.sleep(0.2)
    xdo("click", "1"); time.sleep(0.3)


last_focus = [None]
def press_focus(k="Tab"):
    """Presses Tab (or shift+Tab); the control focused after it (its name) and the state."""
    # Until the focus has moved: the press is never lost (tap()), so it is pressed once and
    # waited for as long as a loaded machine takes to draw the frames; pressed again, a slow
    # frame would skip a control. A focus that never moves is the caller's "Tab stuck".
    # The focus before this press, read now: a step since the last press may have moved it (a
    # Parsons line set aside leaves no focus), and a press that seems to have moved it at once
    # would be pressed again before its frame, skipping a control.
    before = state(10)["state"]["focused"]
    tap(k)
    end = time.time() + 30 * WAIT_SCALE  # a hang guard: a focus that never moves is a failure
    while True:
        d = state(10)
        if d["state"]["focused"] != before or time.time() > end: break
        time.sleep(0.02)
    last_focus[0] = d["state"]["focused"]
    return d["state"]["focused"], d


def tab_to(target, limit=400):
    """Tab until `target` has the focus (no Tab when it has it already); the state."""
    d = state(10)
    if d["state"]["focused"] == target:
        last_focus[0] = target
        return d
    for _ in range(limit):
        f, d = press_focus("Tab")
        if f == target:
            settle()
            return d
    sys.exit("%s: Tab never reached %s" % (name, target))


def shot(label):
    """F12's screenshot, copied to OUT/PREFIX-NAME-LABEL.png (the mouse parked in the corner
    first, unless the script keeps it where it is)."""
    global shots
    if park_mouse: xdo("mousemove", "1", "1")
    time.sleep(0.3)
    exports = os.path.join(os.environ["HOME"], "cuda-lessons-exports", "*.png")
    before = set(glob.glob(exports))
    key("F12")
    for _ in range(300):  # a loaded machine may take seconds for a frame of two windows
        now = set(glob.glob(exports))
        if now - before: break
        time.sleep(0.1)
    new = sorted(now - before)
    if not new: sys.exit("F12 wrote no screenshot for " + label)
    time.sleep(0.3)
    shutil.copy(new[-1], os.path.join(out, "%s-%s-%s.png" % (prefix, name, label)))
    shots += 1


def start(argv, ready=lambda d: d["state"]["label"] != ""):
    """argv: the positions file, the app's pid, OUT, the run's name and the screenshots' prefix.
    Waits for a state that is `ready`, focuses the window, parks the mouse; the state."""
    global rects, pid, out, name, prefix, win, wx, wy
    rects, pid, out, name, prefix = argv[:5]
    d = state(test=ready)
    win = subprocess.run(["xdotool", "search", "--sync", "--pid", pid], capture_output=True,
                         text=True, check=True).stdout.split()[0]
    geo = dict(l.split("=") for l in subprocess.run(
        ["xdotool", "getwindowgeometry", "--shell", win], capture_output=True, text=True,
        check=True).stdout.split())
    wx, wy = int(geo["X"]), int(geo["Y"])
    xdo("windowfocus", win)  # keyboard focus: no window manager here
    xdo("mousemove", "1", "1")
    return d
