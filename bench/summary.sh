#!/usr/bin/env bash
# The README's performance table: wall time and peak RSS of representative runs on this machine,
# as Markdown. Simulated results are the same everywhere; only the time and memory columns move.
# Usage: bench/summary.sh BUILD_DIR   (make bench: build/release)
set -euo pipefail
build=${1:-build/release}
rdmasim=$build/rdmasim
fabric_bench=$build/bench/fabric_bench
[[ -x $rdmasim && -x $fabric_bench ]] || { echo "summary.sh: build $rdmasim and $fabric_bench first" >&2; exit 2; }

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
echo "Machine: ${cpu:-unknown CPU}, $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo
echo "| run | command | work | wall | peak RSS |"
echo "|---|---|---|---|---|"

# One row: label, the work it does (units of the rate), the count of those units, then the command.
row() {
  local label=$1 unit=$2 count=$3; shift 3
  local out
  out=$( { /usr/bin/time -f '%e %M' "$@" > /dev/null; } 2>&1 | tail -1)
  local wall=${out% *} rss_kib=${out#* }
  awk -v l="$label" -v c="${*#"$build/"}" -v u="$unit" -v n="$count" -v w="$wall" -v r="$rss_kib" 'BEGIN {
    rate = (w > 0) ? n / w : 0
    printf "| %s | `%s` | %.3g %s/s | %.2f s | %.1f MiB |\n", l, c, rate, u, w, r / 1024 }'
}

row "ping-pong, 10^6 exchanges" exchanges 1000000 "$rdmasim" lat -n 1000000
row "ib_write_bw, 10^6 messages of 4 KiB" messages 1000000 "$rdmasim" bw -s 4096 -n 1000000
row "TCP ping-pong, 10^5 exchanges" exchanges 100000 "$rdmasim" lat --transport tcp -n 100000
row "all_reduce 64 MiB, 8 DGX H100 (64 GPUs)" iterations 2 "$rdmasim" all_reduce --topology rail-optimized \
  --server dgx-h100 --servers 8 --servers-per-su 8 --spines 8 -g 8 -b 64M -e 64M -n 1 -w 1
row "open-loop WebSearch at 50 % load, 10 ms, k=4 fat-tree" "simulated ms" 10 "$rdmasim" flows --cdf websearch \
  --load 0.5 -D 10ms

# Fabric permutations: packet-hops per wall second from fabric_bench's own line.
for k in 8 12; do
  line=$("$fabric_bench" --k "$k" | tail -1)
  read -r _ hosts _ _ _ wall _ _ _ hops _ _ _ _ _ _ ok rss <<<"$line"
  [[ $ok == yes ]] || { echo "summary.sh: fabric_bench --k $k failed its invariants" >&2; exit 1; }
  awk -v k="$k" -v h="$hosts" -v w="$wall" -v p="$hops" -v r="$rss" 'BEGIN {
    printf "| fat-tree k=%d (%d hosts) permutation, 5 x 2 MiB per flow | `bench/fabric_bench --k %d` | %.3g packet-hops/s | %.2f s | %.1f MiB |\n",
      k, h, k, p / w, w, r }'
done
