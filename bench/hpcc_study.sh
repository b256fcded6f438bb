#!/usr/bin/env bash
# The HPCC paper's FCT study (scenarios/hpcc-study/): its 320-host fat-tree, WebSearch flows at a
# load (default 50 %) arriving for 10 ms, under each congestion control. Prints, per control,
# the flows, the short (< 100 KB) and long (>= 1 MB) flows' p95/p99 FCT slowdown, the PFC pause
# frames, then the run's simulated events, wall time, events per second and peak RSS.
# usage: bench/hpcc_study.sh [RDMASIM] [LOAD=50|30] [key=value ...]   (make bench-study; extra
# arguments are --set overrides, e.g. workload.duration=2ms)
set -euo pipefail
bin=${1:-./build/release/rdmasim}
load=${2:-50}
shift $(( $# > 2 ? 2 : $# ))
sets=()
for kv in "$@"; do sets+=(--set "$kv"); done
dir=$(cd "$(dirname "$0")/../scenarios/hpcc-study" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-13s %7s %10s %10s %10s %10s %9s %12s %8s %11s %9s\n' cc flows short_p95 short_p99 long_p95 long_p99 pauses \
  events wall_s events/s rss_MiB
for cc in dcqcn hpcc timely swift ecn-fraction; do
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" run "$dir/websearch$load-$cc.toml" ${sets[@]+"${sets[@]}"} --json -q \
    > "$tmp/out.json"
  read -r wall rss < "$tmp/time"
  python3 - "$tmp/out.json" "$cc" "$wall" "$rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["bucket"].split(" ")[0]: x for x in d["slowdown"]}
wall, rss = float(sys.argv[3]), int(sys.argv[4])
print(f'{sys.argv[2]:<13} {d["flows"]:>7} {b["short"]["p95"]:>10.3f} {b["short"]["p99"]:>10.3f} {b["long"]["p95"]:>10.3f} '
      f'{b["long"]["p99"]:>10.3f} {d["fabric"]["pause_frames"]:>9} {d["events"]:>12} {wall:>8.1f} '
      f'{d["events"] / wall:>11.0f} {rss / 1024:>9.0f}')
PY
done
