#!/bin/sh
# A stand-in for `cuda-lessons-cli serve` that writes, after its hello, lines that are valid JSON
# of shapes the protocol does not have (a number, an array, a string, fields of other types, a
# list without lessons, an exit message of its own making), then answers list and info like the
# real worker. Not one of them may end the GUI, or be taken for the worker's exit.
echo '{"type":"hello","protocol":2,"built_with_cuda":false}'
echo '42'
echo '[1,2,3]'
echo '"hello"'
echo '{"type":1}'
echo '{"id":1,"type":"list","lessons":[1]}'
echo '{"id":1,"type":"list"}'
echo '{"id":1,"type":"progress","done":"x","total":3}'
echo '{"id":1,"type":"error","error":5}'
echo '{"type":"worker_exit","code":"x"}'
echo '{"type":"worker_exit","code":0}'
while IFS= read -r line; do
    id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
    case "$line" in
    *'"op":"list"'*)
        echo "{\"id\":$id,\"type\":\"list\",\"lessons\":[{\"lesson\":3,\"id\":\"split/openmp\",\"available\":true,\"unavailable_reason\":null}]}" ;;
    *'"op":"info"'*)
        echo "{\"id\":$id,\"type\":\"info\",\"device\":{\"available\":false,\"reason\":\"fake worker\"}}" ;;
    esac
    echo "{\"id\":$id,\"type\":\"done\",\"status\":\"ok\"}"
done
