#!/usr/bin/env bash
# `mpirun -np N rdmasim bw --pattern ...`: the partitioned fabric over MPI ranks (frames between
# ranks cross as bytes, the counts are joined at the end) prints byte for byte the JSON report
# of --threads, which is one scheduler's but for the events counted (one rank is one
# scheduler), for 2 and 4 ranks (more ranks than cores: --oversubscribe): a k=4 fat-tree
# permutation and incast with PFC and DCQCN, a link going down, a k=8 permutation and an incast
# under HPCC (its switches' telemetry crossing to the senders' ranks); a ring's
# PFC deadlock found at the same window; the collectives (all_reduce with DCQCN and a link down,
# staged all_gather, 64 GPUs with PXN) and open-loop flows as on threads. What cannot run over
# ranks is refused once, exit 2.
# Usage: mpi_fabric_test.sh path/to/rdmasim path/to/mpiexec
set -u
bin=$1
mpiexec=$2
source "$(dirname "$0")/mpi_lib.sh"
common=(bw --topology fat-tree -s 65536 --json)
cases=("--k 4 -n 20 --pattern permutation --cc dcqcn"
       "--k 4 -n 20 --pattern incast --incast 15 --cc dcqcn"
       "--k 4 -n 20 --pattern permutation --cc dcqcn --link-down agg0.1-core2@20us-60us --set switch.route_convergence=10us"
       "--k 8 -n 5 --pattern permutation --cc dcqcn"
       "--k 4 -n 20 --pattern incast --incast 15 --cc hpcc")
i=0
for c in "${cases[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$bin" "${common[@]}" $c >"$tmp/one$i.json"
  check "case $i runs: $c" test -s "$tmp/one$i.json"
  # shellcheck disable=SC2086
  "$bin" "${common[@]}" $c --threads 2 >"$tmp/t$i.json"
  # One scheduler counts its deadlock checks and link changes as events; threads do not.
  check "case $i: --threads 2 differs from one scheduler but for the events" \
    cmp -s <(grep -v '"events":' "$tmp/one$i.json") <(grep -v '"events":' "$tmp/t$i.json")
  for n in 1 2 4; do
    [[ $i -eq 4 && $n -ne 2 ]] && continue  # k=8: two ranks suffice
    ref=$tmp/t$i.json
    [[ $n -eq 1 ]] && ref=$tmp/one$i.json  # one rank: one scheduler
    # shellcheck disable=SC2086
    "$mpiexec" --oversubscribe -np "$n" "$bin" "${common[@]}" $c >"$tmp/mpi$i-$n.json" 2>"$tmp/mpi$i-$n.err"
    check "case $i: mpirun -np $n differs: $(head -c 300 "$tmp/mpi$i-$n.err")" cmp -s "$ref" "$tmp/mpi$i-$n.json"
  done
done
# The ring whose stride routing wraps around deadlocks: every rank finds the cycle at the same
# window (exit 3 and the report, as on threads).
ring=(bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16 --json)
"$bin" "${ring[@]}" --threads 2 >"$tmp/ring-t.json" 2>/dev/null
check "the ring deadlocks" grep -q '"deadlocks": 1' "$tmp/ring-t.json"
"$mpiexec" --oversubscribe -np 2 "$bin" "${ring[@]}" >"$tmp/ring-mpi.json" 2>"$tmp/ring-mpi.err"
rc=$?
check "the ring over two ranks: exit $rc, not 3" test "$rc" -eq 3
check "the ring over two ranks differs from threads" cmp -s "$tmp/ring-t.json" "$tmp/ring-mpi.json"
check "the incast paused the fabric" grep -q '"pause_tx": [1-9]' "$tmp/one2.json"
check "the link going down lost frames" grep -q '"link_drops": [1-9]' "$tmp/one3.json"
# The collectives over MPI ranks: the same JSON as --threads 2 (events summed over the ranks),
# one rank as one scheduler: all_reduce with peer copies, DCQCN and a link going down, a staged
# all_gather, and all_reduce on 64 GPUs of 8 DGX H100 with PXN.
coll=("all_reduce --topology fat-tree --k 4 -g 2 -b 1M -e 2M -n 2 --cc dcqcn --link-down agg0.1-core2@20us-60us"
      "all_gather --topology fat-tree --k 4 -b 1M -e 1M -n 2 --gpudirect off"
      "all_reduce --topology rail-optimized --server dgx-h100 --servers 8 --servers-per-su 2 --spines 4 -g 8 -b 2M -e 2M -n 1")
i=0
for c in "${coll[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$bin" $c --json >"$tmp/c-one$i.json"
  # shellcheck disable=SC2086
  "$bin" $c --json --threads 2 >"$tmp/c-t$i.json"
  check "collective $i: wrong elements on threads" grep -q '"wrong": 0' "$tmp/c-t$i.json"
  for n in 1 2 4; do
    [[ $i -ne 1 && $n -ne 2 ]] && continue
    ref=$tmp/c-t$i.json
    [[ $n -eq 1 ]] && ref=$tmp/c-one$i.json
    # shellcheck disable=SC2086
    "$mpiexec" --oversubscribe -np "$n" "$bin" $c --json >"$tmp/c-mpi$i-$n.json" 2>"$tmp/c-mpi$i-$n.err"
    check "collective $i: mpirun -np $n differs: $(head -c 300 "$tmp/c-mpi$i-$n.err")" cmp -s "$ref" "$tmp/c-mpi$i-$n.json"
  done
done
"$mpiexec" --oversubscribe -np 2 "$bin" all_reduce --topology fat-tree --k 4 -b 1M -e 1M -n 2 >"$tmp/c-table.out" 2>&1
check "the collective's table over two ranks is not printed once" test "$(grep -c '^# Avg bus bandwidth' "$tmp/c-table.out")" -eq 1
# Open-loop flows over MPI ranks: the same JSON as --threads 2, one rank as one scheduler, and
# the FCT file rank 0 writes is the one threads write.
flows=(flows --topology fat-tree --k 8 --cdf websearch --load 0.5 -D 300us --cc dcqcn --link-down agg0.1-core4@20us-200us --json)
"$bin" "${flows[@]}" >"$tmp/f-one.json"
"$bin" "${flows[@]}" --threads 2 --fct-out "$tmp/f-t.fct" >"$tmp/f-t.json"
check "flows: not every flow completed on threads" grep -q '"completed": 153' "$tmp/f-t.json"
for n in 1 2 4; do
  ref=$tmp/f-t.json
  [[ $n -eq 1 ]] && ref=$tmp/f-one.json
  "$mpiexec" --oversubscribe -np "$n" "$bin" "${flows[@]}" --fct-out "$tmp/f-mpi$n.fct" >"$tmp/f-mpi$n.json" 2>"$tmp/f-mpi$n.err"
  check "flows: mpirun -np $n differs: $(head -c 300 "$tmp/f-mpi$n.err")" cmp -s "$ref" "$tmp/f-mpi$n.json"
  check "flows: mpirun -np $n wrote another FCT file" cmp -s "$tmp/f-t.fct" "$tmp/f-mpi$n.fct"
done
refused() {  # what, expected line, command...
  local what=$1 line=$2
  shift 2
  "$mpiexec" --oversubscribe -np 2 "$bin" "$@" >"$tmp/r.out" 2>"$tmp/r.err"
  local rc=$?
  check "$what under mpirun: exit $rc, not 2" test "$rc" -eq 2
  check "$what under mpirun: not refused once with: $line ($(head -c 300 "$tmp/r.err"))" \
    test "$(grep -cF -- "$line" "$tmp/r.err")" -eq 1
  check "$what under mpirun: output written" test ! -s "$tmp/r.out"
}
refused "bw without a pattern" "bw under mpirun with 2 ranks: only a traffic pattern's fabric run (--pattern) runs over MPI ranks" \
  bw -n 5
refused "--threads 2" "--threads: over MPI ranks, one thread per rank" \
  bw --topology fat-tree --k 4 -n 5 --pattern permutation --threads 2
refused "a collective on --threads 2" "--threads: over MPI ranks, one thread per rank" \
  all_reduce --topology fat-tree --k 4 -b 1M -e 1M --threads 2
refused "a collective's steps without data" "over MPI ranks: all_reduce of 16 bytes has steps without data" \
  all_reduce --topology fat-tree --k 4 -b 16 -e 16
refused "flows with a PFC log" "over MPI ranks: a partitioned run keeps no PFC log (--pfc-out)" \
  flows --topology fat-tree --k 4 --cdf websearch --load 0.5 -D 50us --pfc-out "$tmp/pfc.txt"
refused "--csv" "over MPI ranks: a partitioned run is neither traced, captured nor sampled" \
  bw --topology fat-tree --k 4 -n 5 --pattern permutation --csv "$tmp/csv"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
