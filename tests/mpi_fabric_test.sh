#!/usr/bin/env bash
# `mpirun -np N rdmasim bw --pattern ...`: the partitioned fabric over MPI ranks (frames between
# ranks cross as bytes, the counts are joined at the end) prints byte for byte the JSON report
# of --threads, which is one scheduler's (a link going down: but for the events counted), for
# 1, 2 and 4 ranks (more ranks than cores: --oversubscribe): a k=4 fat-tree permutation and
# incast with PFC and DCQCN, a link going down, and a k=8 permutation. What cannot run over
# ranks is refused once, exit 2.
# Usage: mpi_fabric_test.sh path/to/rdmasim path/to/mpiexec
set -u
bin=$1
mpiexec=$2
source "$(dirname "$0")/cli_lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
export OMPI_MCA_rmaps_base_oversubscribe=1
common=(bw --topology fat-tree -s 65536 --cc dcqcn --set switch.deadlock_detect=0 --json)
cases=("--k 4 -n 20 --pattern permutation"
       "--k 4 -n 20 --pattern incast --incast 15"
       "--k 4 -n 20 --pattern permutation --link-down agg0.1-core2@20us-60us --set switch.route_convergence=10us"
       "--k 8 -n 5 --pattern permutation")
i=0
for c in "${cases[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$bin" "${common[@]}" $c >"$tmp/one$i.json"
  check "case $i runs: $c" test -s "$tmp/one$i.json"
  # shellcheck disable=SC2086
  "$bin" "${common[@]}" $c --threads 2 >"$tmp/t$i.json"
  # A link going down: each LP converges, so one scheduler counts other events.
  [[ $i -ne 3 ]] && check "case $i: --threads 2 differs from one scheduler" cmp -s "$tmp/one$i.json" "$tmp/t$i.json"
  for n in 1 2 4; do
    [[ $i -eq 4 && $n -ne 2 ]] && continue  # k=8: two ranks suffice
    ref=$tmp/t$i.json
    [[ $n -eq 1 ]] && ref=$tmp/one$i.json  # one rank: one scheduler
    # shellcheck disable=SC2086
    "$mpiexec" --oversubscribe -np "$n" "$bin" "${common[@]}" $c >"$tmp/mpi$i-$n.json" 2>"$tmp/mpi$i-$n.err"
    check "case $i: mpirun -np $n differs: $(head -c 300 "$tmp/mpi$i-$n.err")" cmp -s "$ref" "$tmp/mpi$i-$n.json"
  done
done
check "the incast paused the fabric" grep -q '"pause_tx": [1-9]' "$tmp/one2.json"
check "the link going down lost frames" grep -q '"link_drops": [1-9]' "$tmp/one3.json"
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
refused "the deadlock check" "the PFC deadlock check (switch.deadlock_detect; 0 turns it off) does not run over MPI ranks" \
  bw --topology fat-tree --k 4 -n 5 --pattern permutation
refused "bw without a pattern" "bw under mpirun with 2 ranks: only a traffic pattern's fabric run (--pattern) runs over MPI ranks" \
  bw -n 5
refused "--threads 2" "--threads: over MPI ranks, one thread per rank" \
  bw --topology fat-tree --k 4 -n 5 --pattern permutation --set switch.deadlock_detect=0 --threads 2
refused "--csv" "over MPI ranks: a partitioned run is neither traced, captured nor sampled" \
  bw --topology fat-tree --k 4 -n 5 --pattern permutation --set switch.deadlock_detect=0 --csv "$tmp/csv"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
