# Sourced by the GUI scripts (gui_page.sh, gui_walk.sh, gui_keyboard.sh): start_xvfb FIRST LAST
# starts Xvfb at 1600x1000 on the first free display number from FIRST to LAST (each script has
# its own range: they may run at once), exports DISPLAY, waits until a client connects, and ends
# Xvfb and the app ($app_pid, which the script sets while the app runs) at exit. Needs fail().
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
