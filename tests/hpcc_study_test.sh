#!/usr/bin/env bash
# The HPCC paper's study (scenarios/hpcc-study/) at WebSearch 50 % load, arrivals cut to 2 ms so
# it runs in seconds: HPCC and Swift give the short flows (< 100 KB) a lower p99 FCT slowdown
# than DCQCN, as the HPCC paper reports, with the exact figures of this deterministic run.
# usage: hpcc_study_test.sh RDMASIM SOURCE_DIR
set -euo pipefail
bin=$1
dir=$2/scenarios/hpcc-study
p99() {
  "$bin" run "$dir/websearch50-$1.toml" --set workload.duration=2ms --json -q |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print("%.3f" % [b for b in d["slowdown"] if b["bucket"].startswith("short")][0]["p99"])'
}
dcqcn=$(p99 dcqcn) hpcc=$(p99 hpcc) swift=$(p99 swift)
echo "short-flow p99 slowdown: dcqcn $dcqcn, hpcc $hpcc, swift $swift"
[[ $dcqcn == 6.796 && $hpcc == 2.273 && $swift == 4.426 ]] || { echo "FAIL: expected dcqcn 6.796, hpcc 2.273, swift 4.426"; exit 1; }
awk -v d="$dcqcn" -v h="$hpcc" -v s="$swift" 'BEGIN { exit !(h < d && s < d) }' || { echo "FAIL: ordering"; exit 1; }
echo ok
