#!/bin/sh
# A stand-in for `cuda-lessons-cli serve` that will not stop: it says hello, writes its process
# id to the file named by $FAKE_WORKER_PID_FILE, then ignores shutdown, end of input, SIGTERM, SIGINT and SIGHUP.
# Only SIGKILL ends it (and the sleep it waits in, which holds its output pipe open too).
trap '' TERM INT HUP
echo '{"type":"hello","protocol":2,"built_with_cuda":false}'
echo $$ >"${FAKE_WORKER_PID_FILE:-/dev/null}"
while :; do
    sleep 1
done
