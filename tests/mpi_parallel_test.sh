#!/usr/bin/env bash
# ParallelRun over MPI ranks: the PHOLD-like model (tests/phold_ranks.cpp) prints the same
# per-LP events and hashes, and the same windows, on 1, 2 and 4 threads and under
# `mpirun -np 1/2/4` (more ranks than cores: --oversubscribe); threads and ranks together are
# refused.
# Usage: mpi_parallel_test.sh path/to/phold_ranks path/to/mpiexec
set -u
bin=$1
mpiexec=$2
source "$(dirname "$0")/mpi_lib.sh"
"$bin" --threads 1 >"$tmp/t1.out"
check "12 LPs and the windows printed" test "$(wc -l <"$tmp/t1.out")" -eq 13
check "every LP ran events" test "$(awk '$1 == "lp" && $3 > 1000' "$tmp/t1.out" | wc -l)" -eq 12
for t in 2 4; do
  "$bin" --threads $t >"$tmp/t$t.out"
  check "--threads $t differs from one thread" cmp -s "$tmp/t1.out" "$tmp/t$t.out"
done
for n in 1 2 4; do
  "$mpiexec" --oversubscribe -np "$n" "$bin" >"$tmp/mpi$n.out" 2>"$tmp/mpi$n.err"
  check "mpirun -np $n differs from one thread: $(head -c 300 "$tmp/mpi$n.err")" cmp -s "$tmp/t1.out" "$tmp/mpi$n.out"
done
"$mpiexec" --oversubscribe -np 2 "$bin" --threads 2 >"$tmp/both.out" 2>"$tmp/both.err"
rc=$?
check "threads and ranks together: exit $rc, not 2" test "$rc" -eq 2
check "threads and ranks together: no refusal" grep -qF "over ranks, one thread per rank" "$tmp/both.err"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
