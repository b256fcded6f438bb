#!/usr/bin/env bash
# `mpirun -np N rdmasim sweep ...`: the ranks share the points out (rank r runs share r + 1 of
# N) and rank 0 writes exactly the table `sweep -j 1` writes, CSV and JSON, for 1, 2 and 4
# ranks (more ranks than cores: --oversubscribe). --shard under mpirun is refused, and so is
# any other command but `bw --pattern` (tests/mpi_fabric_test.sh). Errors every rank finds
# alike are reported by rank 0 alone.
# Usage: mpi_sweep_test.sh path/to/rdmasim path/to/source-dir path/to/mpiexec
set -u
bin=$1
src=$2
mpiexec=$3
source "$(dirname "$0")/mpi_lib.sh"
s=$src/scenarios
sweep=(sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2,3 --set workload.iters=5)
"$bin" "${sweep[@]}" -j 1 >"$tmp/j1.csv"
"$bin" "${sweep[@]}" -j 1 --json >"$tmp/j1.json"
for n in 1 2 4; do
  "$mpiexec" --oversubscribe -np "$n" "$bin" "${sweep[@]}" >"$tmp/mpi$n.csv" 2>"$tmp/mpi$n.err"
  check "mpirun -np $n sweep (CSV) differs from sweep -j 1: $(head -c 300 "$tmp/mpi$n.err")" cmp -s "$tmp/j1.csv" "$tmp/mpi$n.csv"
  "$mpiexec" --oversubscribe -np "$n" "$bin" "${sweep[@]}" -o "$tmp/mpi$n.json" 2>"$tmp/mpi$n.err"
  check "mpirun -np $n sweep -o x.json differs from sweep -j 1 --json" cmp -s "$tmp/j1.json" "$tmp/mpi$n.json"
done
check "the sweep has 6 points" test "$(wc -l <"$tmp/j1.csv")" -eq 7
"$mpiexec" --oversubscribe -np 2 "$bin" "${sweep[@]}" --shard 1/2 >"$tmp/shard.out" 2>"$tmp/shard.err"
rc=$?
check "--shard under mpirun: exit $rc, not 2" test "$rc" -eq 2
check "--shard under mpirun: no refusal" grep -qF -- "--shard: mpirun shares the sweep out itself" "$tmp/shard.err"
check "--shard under mpirun: output written" test ! -s "$tmp/shard.out"
# Any other command would run once per rank: refused, one line per rank, exit 2.
"$mpiexec" --oversubscribe -np 2 "$bin" lat -n 10 >"$tmp/lat.out" 2>"$tmp/lat.err"
rc=$?
check "lat under mpirun: exit $rc, not 2" test "$rc" -eq 2
check "lat under mpirun: no refusal" grep -qF -- "lat under mpirun with 2 ranks: only \`sweep\` (its points), \`bw --pattern\`, \`flows\` and the collectives (their fabric) run over MPI ranks" "$tmp/lat.err"
check "lat under mpirun: the refusal is not said once (rank 0 alone reports)" test "$(grep -c 'under mpirun' "$tmp/lat.err")" -eq 1
# A bad sweep is the same error on every rank: said once, exit 2.
"$mpiexec" --oversubscribe -np 2 "$bin" sweep "$s/fat-tree-multipath.toml" --param network.no_such_key=1,2 >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
check "bad sweep under mpirun: exit $rc, not 2" test "$rc" -eq 2
check "bad sweep under mpirun: the error is not said once: $(head -c 300 "$tmp/bad.err")" test "$(grep -c 'no_such_key' "$tmp/bad.err")" -eq 1
check "lat under mpirun: output written" test ! -s "$tmp/lat.out"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
