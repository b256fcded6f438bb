#!/usr/bin/env bash
# The 1,024-GPU cluster: 128 DGX H100 (8 x H100, 8 x ConnectX-7 400 Gb/s each) on a rail-optimized
# fabric of 4 scalable units of 32 servers, one leaf per rail and unit (32) and 1,024 leaf-spine
# cables, as NVIDIA's DGX SuperPOD reference architecture for 4 SUs (its 16 spines with two cables
# to each leaf are built as 32 spines with one: the same cables and bandwidth). Runs an all_reduce
# of 1 GiB and an alltoall of 256 MiB across all 1,024 GPUs (-c 0: no data tracked) and prints,
# per run, the nccl-tests row, busbw, simulated events, wall time and peak RSS.
# usage: bench/gpu_cluster.sh [RDMASIM] [SERVERS] [THREADS]
#   (make bench-gpu; defaults: the release build, 128, 0: one scheduler; N: the fabric's LPs on N threads)
set -euo pipefail
bin=${1:-./build/release/rdmasim}
servers=${2:-128}
threads=${3:-0}
fabric=(--topology rail-optimized --server dgx-h100 --servers "$servers" --servers-per-su 32 --spines 32 -g 8)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in "all_reduce 1G" "alltoall 256M"; do
  set -- $run
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" "$1" "${fabric[@]}" -b "$2" -e "$2" -n 1 -w 0 -c 0 --threads "$threads" --json > "$tmp/out.json"
  read -r wall rss < "$tmp/time"
  python3 - "$tmp/out.json" "$1" "$2" "$wall" "$rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print(f'{sys.argv[2]} {sys.argv[3]}iB on {d["config"]["ranks"]} GPUs ({d["config"]["algo"]}): '
      f'time {r["time_us"]:.1f} us, busbw {r["busbw_GBps"]:.2f} GB/s, {r["events"]} events; '
      f'wall {float(sys.argv[4]):.1f} s, peak RSS {int(sys.argv[5]) / 1024:.0f} MiB')
PY
done
