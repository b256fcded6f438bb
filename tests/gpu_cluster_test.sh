#!/usr/bin/env bash
# The 1,024-GPU DGX H100 cluster (bench/gpu_cluster.sh) builds and runs an all_reduce of 1 GiB
# and an alltoall of 256 MiB across all 1,024 GPUs to completion, with the same results every
# time (the nccl-tests busbw to the printed digit) and under 2 GiB of memory each; the all_reduce
# cut into its four scalable units on two threads gives the same row as one scheduler.
# usage: gpu_cluster_test.sh RDMASIM SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
out=$(bash "$src/bench/gpu_cluster.sh" "$bin" 128) || { echo "FAIL: the 1,024-GPU runs did not complete"; exit 1; }
echo "$out"
fail=0
expect() {  # a line of the output must contain $1
  grep -qF -- "$1" <<< "$out" || { echo "FAIL: no line with: $1"; fail=1; }
}
expect "all_reduce 1GiB on 1024 GPUs (ring): time 5820.1 us, busbw 368.62 GB/s"
expect "alltoall 256MiB on 1024 GPUs (windowed): time 15328.8 us, busbw 17.49 GB/s"
part=$("$bin" all_reduce --topology rail-optimized --server dgx-h100 --servers 128 --servers-per-su 32 --spines 32 -g 8 \
  -b 1G -e 1G -n 1 -w 0 -c 0 --threads 2 | grep -E '^ +[0-9]') || { echo "FAIL: the partitioned all_reduce did not complete"; exit 1; }
echo "--threads 2: $part"
read -r _ _ _ _ _ time _ busbw _ <<< "$part"
[ "$time $busbw" = "5820.1 368.62" ] || { echo "FAIL: --threads 2 gives time $time us, busbw $busbw GB/s"; fail=1; }
while read -r rss; do
  [ "$rss" -lt 2048 ] || { echo "FAIL: peak RSS $rss MiB (at most 2048)"; fail=1; }
done < <(grep -o 'peak RSS [0-9]*' <<< "$out" | awk '{print $3}')
[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
