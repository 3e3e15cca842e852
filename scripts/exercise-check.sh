#!/usr/bin/env bash
# Each exercise's reference solution (the lesson's own kernel, as a student's file) run through
# the step's harness beside the step itself, at the lesson's default sizes and the exercise's
# fixed choices: verified, and its time against the step's: the compared time is the one tune
# compares (rate_ms: the kernel's for a step that also copies, else the whole run's). On a GPU
# machine:
#   scripts/exercise-check.sh [CLI] [LESSON...]     (CLI: build-dev/cli/cuda-lessons-cli)
# Prints a markdown table; exit 1 when a solution is wrong or more than 5% slower than the step.
set -uo pipefail
cli=${1:-build-dev/cli/cuda-lessons-cli}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" exercise --format json >"$work/all.json" || exit 2
lessons=("$@")
[ ${#lessons[@]} -eq 0 ] &&
    mapfile -t lessons < <(python3 -c 'import json,sys; [print(e["lesson"]) for e in json.load(open(sys.argv[1]))]' "$work/all.json")
echo "| lesson | fixed | step ms | solution ms | solution / step | step median ms (whole run) | solution median ms | verified |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
status=0
for l in "${lessons[@]}"; do
    "$cli" exercise "$l" --solution --format json >"$work/e.json" || { status=1; continue; }
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["solution"], end="")' "$work/e.json" >"$work/solution.cu"
    sets=$(python3 -c 'import json,sys; print(" ".join(f"--set {k}={v}" for k,v in json.load(open(sys.argv[1]))["fixed"].items()))' "$work/e.json")
    "$cli" run "$l" $sets --no-ceilings --format json >"$work/step.json" 2>"$work/step.err"
    "$cli" run "$l" --kernel "$work/solution.cu" --no-ceilings --format json >"$work/mine.json" 2>"$work/mine.err"
    python3 - "$l" "$sets" "$work/step.json" "$work/mine.json" "$work/mine.err" <<'PY' || status=1
import json, sys
lesson, sets, step_f, mine_f, err_f = sys.argv[1:]
def load(f):
    try:
        j = json.load(open(f))
        return j[0] if isinstance(j, list) else j
    except Exception:
        return None
step, mine = load(step_f), load(mine_f)
run = mine.get("run") if mine else None
fixed = sets.replace("--set ", "") or "-"
if not step or not run:
    print(f"| {lesson} | {fixed} | {step['rate_ms'] if step else 'failed'} | failed: {open(err_f).read().strip()[:200]} | - | - | - | no |")
    sys.exit(1)
ratio = run["rate_ms"] / step["rate_ms"]
print(f"| {lesson} | {fixed} | {step['rate_ms']:.4f} | {run['rate_ms']:.4f} | {ratio:.3f} | {step['median_ms']:.4f} | {run['median_ms']:.4f} | {'yes' if run['verified'] else 'NO'} |")
sys.exit(0 if run["verified"] and ratio <= 1.05 else 1)
PY
done
exit $status
