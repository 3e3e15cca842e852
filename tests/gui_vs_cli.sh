#!/usr/bin/env bash
# A measurement, not a test: ctest does not run it and nothing here passes or fails on a time.
# Lessons 1.2 and 1.3 measured live in the GUI under Xvfb (`cuda-lessons --lesson 1.3 --run`
# times 1.2 and 1.3 in turn, the worker's `compare`, and the page compares them) and by the CLI
# (`compare 1.2 1.3`) with the parameters, time and trials the GUI asked for, ROUNDS times each,
# one after the other. The GUI's numbers are read from its worker's replies (a wrapper copies
# them), the very results the page shows.
# Prints each run's median with its interval and the speed-up of 1.3 over 1.2 (1.2's median over
# 1.3's, with the interval the two intervals give), then whether the GUI's speed-ups lie within
# the CLI's intervals and the CLI's within the GUI's. Issue 40, item 4.
# Usage: tests/gui_vs_cli.sh CUDA_LESSONS CUDA_LESSONS_CLI OUT_DIR [SIZE (64MiB)] [ROUNDS (3)]
# WORKER_NICE=N starts the GUI's worker with serve --nice=N (default: as the GUI starts it).
# The worker's hello says its nice; each run's line says it (nice N).
set -u
app=$1 cli=$2 out=$3 size=${4:-64MiB} rounds=${5:-3}
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
rm -rf "$out" && mkdir -p "$out/home" "$out/config"
export HOME="$out/home" XDG_CONFIG_HOME="$out/config" CUDA_VISIBLE_DEVICES=""
fail() { echo "FAILED: $*"; exit 1; }
source "$(dirname "$0")/gui_xvfb.sh"  # xvfb_launch
WORKER_NICE=${WORKER_NICE:-}
app_pid=""
trap '[ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null; kill "$xvfb_pid" 2>/dev/null' EXIT
xvfb_launch 1600x1000x24 "$out/xvfb.log"
export DISPLAY=$xvfb_display

# The worker as the GUI starts it (cuda-lessons-cli serve), its requests and replies copied.
# WORKER_NICE replaces the --nice the GUI gives.
cat >"$out/worker.sh" <<EOF
#!/usr/bin/env bash
args=()
for a in "\$@"; do case "\$a" in --nice=*) [ -n "$WORKER_NICE" ] || args+=("\$a") ;; *) args+=("\$a") ;; esac; done
${WORKER_NICE:+args+=(--nice=$WORKER_NICE)}
tee -a "$out/requests.jsonl" | "$cli" "\${args[@]}" | tee -a "$out/replies.jsonl"
EOF
chmod +x "$out/worker.sh"

for round in $(seq "$rounds"); do
    : >"$out/replies.jsonl"
    CUDA_LESSONS_RECTS_FILE="$out/rects.json" "$app" --lesson 1.3 --run --size "$size" --lang en \
        --scale 1 --worker "$out/worker.sh" >"$out/app-$round.log" 2>&1 &
    app_pid=$!
    # Done when both live results have come and the GUI is idle again.
    python3 - "$out/replies.jsonl" <<'PY' || fail "the GUI's run of 1.2 and 1.3 did not finish"
import json, sys, time
end = time.time() + 600
while time.time() < end:
    got = set()
    for line in open(sys.argv[1]):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("type") == "result" and r.get("result", {}).get("lesson") in ("1.2", "1.3"):
            got.add(r["result"]["lesson"])
    if got == {"1.2", "1.3"}:
        sys.exit(0)
    time.sleep(0.5)
sys.exit(1)
PY
    kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""
    cp "$out/replies.jsonl" "$out/gui-$round.jsonl"
    # The CLI with the parameters the GUI sent: its `compare` of the two, as the GUI's worker ran
    # it (the same lessons, parameters, time and trials).
    args=$(python3 - "$out/requests.jsonl" <<'PY'
import json, sys
def lines(path):
    for line in open(path):
        try:
            yield json.loads(line)
        except ValueError:
            pass
request = [q for q in lines(sys.argv[1]) if q.get("op") in ("compare", "run")][-1]
if request["op"] != "compare":
    sys.exit("the GUI sent no compare request (%s)" % request["op"])
args = list(request["lessons"])
args += ["--set %s=%s" % (k, v) for k, v in sorted(request["params"].items())]
for key, flag in (("reps", "--reps"), ("min_time_s", "--min-time"), ("seed", "--seed"),
                  ("trials", "--trials")):
    if key in request:
        args.append("%s %s" % (flag, request[key]))
print(" ".join(args))
PY
) || fail "no compare request of the GUI's in $out/requests.jsonl"
    echo "round $round: cuda-lessons-cli compare $args" >>"$out/cli-args.txt"
    # shellcheck disable=SC2086
    "$cli" compare $args --format json >"$out/cli-$round.json" ||
        fail "cuda-lessons-cli compare exited with $?"
done

python3 - "$out" "$rounds" "$size" <<'PY'
import json, sys
out, rounds, size = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def gui(r):
    res = {}
    for line in open("%s/gui-%d.jsonl" % (out, r)):
        try:
            m = json.loads(line)
        except ValueError:
            continue
        if m.get("type") == "result":
            res[m["result"]["lesson"]] = m["result"]
        if m.get("type") == "hello":
            res["nice"] = m.get("nice")
    return res
def cli(r):
    return {x["lesson"]: x for x in json.load(open("%s/cli-%d.json" % (out, r)))["results"]}
def speedup(res):
    a, b = res["1.2"], res["1.3"]
    return (a["median_ms"] / b["median_ms"], a["median_lo_ms"] / b["median_hi_ms"],
            a["median_hi_ms"] / b["median_lo_ms"])
rows = {"gui": [], "cli": []}
print("lessons 1.2 and 1.3 at %s, %d rounds (median [interval] ms; speed-up of 1.3 over 1.2)" % (size, rounds))
for r in range(1, rounds + 1):
    for who, res in (("gui", gui(r)), ("cli", cli(r))):
        s = speedup(res)
        rows[who].append(s)
        who_nice = "%s (worker at nice %s)" % (who, res["nice"]) if "nice" in res else who
        print("  round %d %s: 1.2 %.1f [%.1f, %.1f], 1.3 %.1f [%.1f, %.1f] (threads %s, trials %s, reps %s/%s, other cores busy %.2f/%.2f): %.2fx [%.2f, %.2f]" % (
            r, who_nice, res["1.2"]["median_ms"], res["1.2"]["median_lo_ms"], res["1.2"]["median_hi_ms"],
            res["1.3"]["median_ms"], res["1.3"]["median_lo_ms"], res["1.3"]["median_hi_ms"],
            res["1.3"]["params"].get("threads"), res["1.3"].get("trials", 1), res["1.2"]["reps"], res["1.3"]["reps"],
            res["1.2"].get("other_cores_busy") or 0, res["1.3"].get("other_cores_busy") or 0, *s))
inside = lambda x, lo, hi: lo <= x <= hi
g_in_c = sum(inside(g[0], c[1], c[2]) for g in rows["gui"] for c in rows["cli"])
c_in_g = sum(inside(c[0], g[1], g[2]) for g in rows["gui"] for c in rows["cli"])
n = len(rows["gui"]) * len(rows["cli"])
print("GUI's speed-up within the CLI's interval: %d of %d pairs; CLI's within the GUI's: %d of %d" % (g_in_c, n, c_in_g, n))
PY
