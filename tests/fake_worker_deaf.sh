#!/bin/sh
# A stand-in for `cuda-lessons-cli serve` that answers the lesson list and the device information,
# then stops reading its input for good: the GUI's requests fill the pipe. Its process id goes to
# $FAKE_WORKER_PID_FILE when set (a test can end it by that id).
[ -n "${FAKE_WORKER_PID_FILE:-}" ] && echo $$ >"$FAKE_WORKER_PID_FILE"
echo '{"type":"hello","protocol":2,"built_with_cuda":false}'
for request in 1 2; do
    IFS= read -r line
    id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
    case "$line" in
    *'"op":"list"'*)
        echo "{\"id\":$id,\"type\":\"list\",\"lessons\":[{\"lesson\":2,\"id\":\"split/even-positions\",\"available\":true,\"unavailable_reason\":null},{\"lesson\":3,\"id\":\"split/openmp\",\"available\":true,\"unavailable_reason\":null}]}" ;;
    *'"op":"info"'*)
        echo "{\"id\":$id,\"type\":\"info\",\"device\":{\"available\":false,\"reason\":\"fake worker\"}}" ;;
    esac
    echo "{\"id\":$id,\"type\":\"done\",\"status\":\"ok\"}"
done
exec sleep 100000
