#!/usr/bin/env bash
# `rdmasim run | compare | sweep` on scenario files: they run, sweeps are byte-identical for any
# thread count, bad files exit 2 with a located one-line message and write nothing.
# Usage: scenario_cli_test.sh path/to/rdmasim path/to/source-dir
set -u
bin=$1
src=$2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() {  # ok "<stdout substring>" args...
  local want=$1
  shift
  if "$bin" "$@" >"$tmp/out" 2>"$tmp/err" && grep -qF -- "$want" "$tmp/out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: rdmasim $* (wanted '$want'): $(head -c 300 "$tmp/err")"; fi
}
err() {  # err "<stderr substring>" args...
  local want=$1
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 && ! -s $tmp/out ]] && grep -qF -- "$want" "$tmp/err"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: rdmasim $* -> rc=$rc stderr=$(cat "$tmp/err") (wanted '$want')"; fi
}
check() {  # check "<what>" command...
  local what=$1
  shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
s=$src/scenarios
ok "scenario: RDMA WRITE 64 B, back-to-back" run "$s/latency-decomposition.toml"
ok "RDMA_Write Latency Test" run "$s/latency-decomposition.toml"
ok "closed-form budget" run "$s/fabric-budget.toml"
ok "PFC pause frames" run "$s/incast-pfc.toml"
ok '"t_typical"' run "$s/latency-decomposition.toml" --set workload.iters=100 --json
ok "t_typical_us" compare "$s/tcp-baseline.toml" "$s/latency-decomposition.toml"
ok "network.mtu=4096" compare "$s/mtu-goodput.toml" --vs network.mtu=4096 --set workload.iters=50
ok '"schemes"' compare "$s/mtu-goodput.toml" --vs network.mtu=2048 --set workload.iters=50 --json
"$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2 --set workload.iters=5 -j 1 >"$tmp/j1.csv"
"$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2 --set workload.iters=5 -j 2 >"$tmp/j2.csv"
check "sweep -j1 and -j2 differ" cmp -s "$tmp/j1.csv" "$tmp/j2.csv"
check "sweep: not 4 rows + header" test "$(wc -l <"$tmp/j1.csv")" -eq 5
check "sweep header" grep -q '^network.routing,seed,aggregate_Gbps' "$tmp/j1.csv"
"$bin" sweep "$s/mtu-goodput.toml" --param network.mtu=1024,4096 --set workload.iters=20 -o "$tmp/m.json"
check "sweep -o .json: no schema_version" grep -q '"schema_version": 1' "$tmp/m.json"
printf 'command = "lat"\n[workload]\niters = "many"\n' >"$tmp/bad.toml"
err "$tmp/bad.toml:3:9: workload.iters: expected an integer" run "$tmp/bad.toml"
err "bad.toml:3:9: workload.iters" sweep "$tmp/bad.toml" --param network.mtu=1024 -o "$tmp/never.csv"
check "a failed sweep wrote its output" test ! -e "$tmp/never.csv" -a ! -e "$tmp/never.csv.tmp"
err "cannot read the scenario file" run "$tmp/missing.toml"
err "network.mtu: expected an integer" sweep "$s/mtu-goodput.toml" --param network.mtu=1024,big
err "unknown parameter \"switch.bufer\"" run "$s/incast-pfc.toml" --set switch.bufer=1MiB
err "compare: give two or more scenarios" compare "$s/mtu-goodput.toml"
err "runs a different command" compare "$s/mtu-goodput.toml" "$s/tcp-baseline.toml"
err "-o /nonexistent/x.csv: cannot write there" sweep "$s/mtu-goodput.toml" --param network.mtu=1024 -o /nonexistent/x.csv
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
