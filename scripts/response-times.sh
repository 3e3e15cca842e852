#!/usr/bin/env bash
# A benchmark, not a test: how soon the CLI and its worker (`serve`) answer what the hostile-input
# tests check by behaviour alone (tests/test_cli.cpp, tests/test_serve.cpp; no test judges a time,
# issue 40). Prints seconds, each the median of ROUNDS tries with its smallest and largest:
#   refuse-cli     `sweep` over 15,000 choices refused (usage error) by the CLI
#   refuse-worker  a worker's sweep of 100,000 choices refused, and the next request answered
#   cancel         a worker's long sweep: cancel sent until "cancelled" comes back
#   sigterm        a worker busy with a 30 s run: SIGTERM until it has exited
# The machine's load decides these; say it (uptime) with the figures.
# Usage: scripts/response-times.sh [CUDA_LESSONS_CLI (build/cli/cuda-lessons-cli)] [ROUNDS (5)]
set -euo pipefail
cli=${1:-build/cli/cuda-lessons-cli}
rounds=${2:-5}
[ -x "$cli" ] || { echo "no $cli: build it first (scripts/build.sh)" >&2; exit 1; }
echo "load: $(uptime)"
python3 - "$cli" "$rounds" <<'PY'
import json, os, signal, statistics, subprocess, sys, time

cli, rounds = sys.argv[1], int(sys.argv[2])


def figure(name, samples):
    print("%-14s median %.3f s  (min %.3f, max %.3f, %d tries)"
          % (name, statistics.median(samples), min(samples), max(samples), len(samples)))


class Worker:
    def __init__(self):
        self.p = subprocess.Popen([cli, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.next()  # hello

    def send(self, request):
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()

    def next(self):
        line = self.p.stdout.readline()
        if not line:
            raise SystemExit("the worker ended")
        return json.loads(line)

    def until_done(self, request_id):
        while True:
            m = self.next()
            if m.get("type") == "done" and m.get("id") == request_id:
                return m["status"]

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()


samples = []
values = ",".join("a%d" % i for i in range(15000))
for _ in range(rounds):
    start = time.monotonic()
    r = subprocess.run([cli, "sweep", "split/naive-scan", "--over", "data=" + values, "--size",
                        "1KiB"], capture_output=True, text=True)
    samples.append(time.monotonic() - start)
    if r.returncode != 2:
        raise SystemExit("refuse-cli: exit %d, not 2" % r.returncode)
figure("refuse-cli", samples)

samples = []
w = Worker()
for i in range(rounds):
    start = time.monotonic()
    w.send({"op": "sweep", "id": "big%d" % i, "lesson": "split/naive-scan", "min_time_s": 0,
            "params": {"size": "1KiB"}, "over": "data",
            "values": ["a%d" % k for k in range(100000)]})
    w.send({"op": "info", "id": "after%d" % i})
    if w.until_done("big%d" % i) != "error":
        raise SystemExit("refuse-worker: the sweep was not refused")
    w.until_done("after%d" % i)
    samples.append(time.monotonic() - start)
figure("refuse-worker", samples)

samples = []
for i in range(rounds):
    w.send({"op": "sweep", "id": "long%d" % i, "lesson": "split/naive-scan", "min_time_s": 0,
            "params": {"data": "dense"}, "over": "size",
            "values": [1024 + 4 * k for k in range(4000)]})
    while w.next().get("type") != "result":
        pass
    start = time.monotonic()
    w.send({"op": "cancel", "id": "stop%d" % i})
    if w.until_done("long%d" % i) != "cancelled":
        raise SystemExit("cancel: the sweep was not cancelled")
    samples.append(time.monotonic() - start)
    w.until_done("stop%d" % i)
w.close()
figure("cancel", samples)

samples = []
for i in range(rounds):
    w = Worker()
    w.send({"op": "run", "id": 1, "lesson": "split/naive-scan", "size": "1MiB", "min_time_s": 30})
    while w.next().get("type") != "progress":
        pass
    start = time.monotonic()
    w.p.send_signal(signal.SIGTERM)
    try:
        w.p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        w.close()
        raise SystemExit("sigterm: the worker still ran 120 s after SIGTERM")
    samples.append(time.monotonic() - start)
    w.close()
figure("sigterm", samples)
PY
