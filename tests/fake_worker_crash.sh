#!/bin/sh
# A stand-in for `cuda-lessons-cli serve` that dies in the middle of a run: it answers list,
# info and runs of lesson 1.2 (split/even-positions) like the real worker, but when asked to run
# lesson 1.3 (split/openmp), alone or timed in turn with 1.2 (`compare`), it reports progress and
# exits with code 3, as the real worker does after a sticky CUDA error. Requests name lessons by
# id, as the GUI sends them.
echo '{"type":"hello","protocol":2}'
while IFS= read -r line; do
    id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
    case "$line" in
    *'"op":"list"'*)
        echo "{\"id\":$id,\"type\":\"list\",\"lessons\":[{\"lesson\":2,\"id\":\"split/even-positions\",\"available\":true,\"unavailable_reason\":null},{\"lesson\":3,\"id\":\"split/openmp\",\"available\":true,\"unavailable_reason\":null}]}"
        echo "{\"id\":$id,\"type\":\"done\",\"status\":\"ok\"}" ;;
    *'"op":"info"'*)
        echo "{\"id\":$id,\"type\":\"info\",\"device\":{\"available\":false,\"reason\":\"fake worker\"}}"
        echo "{\"id\":$id,\"type\":\"done\",\"status\":\"ok\"}" ;;
    *'"op":"run"'*'"lesson":"split/even-positions"'*)
        echo "{\"id\":$id,\"type\":\"result\",\"result\":{\"lesson\":2,\"id\":\"split/even-positions\",\"chapter\":\"split\",\"kind\":\"cpu\",\"params\":{\"size\":1024,\"data\":\"random\"},\"median_ms\":1.0,\"min_ms\":0.9,\"max_ms\":1.1,\"gbps\":1.0,\"verified\":true}}"
        echo "{\"id\":$id,\"type\":\"done\",\"status\":\"ok\"}" ;;
    *'"op":"run"'*'"lesson":"split/openmp"'* | *'"op":"compare"'*'"split/openmp"'*)
        echo "{\"id\":$id,\"type\":\"progress\",\"done\":1,\"total\":10}"
        exit 3 ;;
    *)
        echo "{\"id\":$id,\"type\":\"done\",\"status\":\"ok\"}" ;;
    esac
done
