#!/usr/bin/env bash
# `rdmasim run | compare | sweep` on scenario files: they run, sweeps are byte-identical for any
# thread count, bad files exit 2 with a located one-line message and write nothing.
# Usage: scenario_cli_test.sh path/to/rdmasim path/to/source-dir
set -u
bin=$1
src=$2
source "$(dirname "$0")/cli_lib.sh"
s=$src/scenarios
expect_ok "scenario: RDMA WRITE 64 B, back-to-back" run "$s/latency-decomposition.toml"
expect_ok "RDMA_Write Latency Test" run "$s/latency-decomposition.toml"
expect_ok "closed-form budget" run "$s/fabric-budget.toml"
expect_ok "RDMA_Write BW Test" run "$s/degraded-link.toml" --set workload.iters=20 -o "$tmp/r.json"
check "run -o: no results JSON" grep -q '"schema_version": 2' "$tmp/r.json"
check "run -o: no BW_average_Gbps" grep -q '"BW_average_Gbps"' "$tmp/r.json"
expect_error "-o /nonexistent/r.json: cannot write there" run "$s/degraded-link.toml" -o /nonexistent/r.json
expect_ok "RDMA_Write Bidirectional BW Test" run "$s/degraded-link.toml" --set workload.iters=20 --set workload.qps=2 --set workload.bidirectional=true
grep -v '^iters' "$s/degraded-link.toml" >"$tmp/degraded-no-iters.toml"
expect_ok '"duration_s": 0.0005' run "$tmp/degraded-no-iters.toml" --set workload.duration=500us --json
expect_error "-n/--iters and -D/--duration (workload.iters, workload.duration): give one" \
  run "$s/degraded-link.toml" --set workload.duration=500us
printf 'command = "bw"\n[workload]\nduration = "soon"\n' >"$tmp/dur.toml"
expect_error "dur.toml:3:12: workload.duration: expected a time" run "$tmp/dur.toml"
expect_ok "PFC pause frames" run "$s/incast-pfc.toml"
# A scenario's [outputs] csv alone: `rdmasim run` writes the tables (run() is told files are written).
printf 'command = "lat"\n[workload]\niters = 10\n[outputs]\ncsv = "%s"\n' "$tmp/csv-only" >"$tmp/csv-only.toml"
expect_ok "RDMA_Write Latency Test" run "$tmp/csv-only.toml"
check "run [outputs] csv: no messages.csv" test -s "$tmp/csv-only/messages.csv"
expect_ok "PFC pause frames" run "$s/incast-pfc.toml" --set "outputs.csv=$tmp/csv-pattern"
check "run --set outputs.csv on a pattern: no flows.csv" test -s "$tmp/csv-pattern/flows.csv"
expect_failed_run "PFC DEADLOCK at" "a PFC deadlock" run "$s/pfc-deadlock.toml"
expect_ok "PFC watchdog: 352 storms" run "$s/pfc-watchdog.toml"
expect_ok '"t_typical"' run "$s/latency-decomposition.toml" --set workload.iters=100 --json
expect_ok "t_typical_us" compare "$s/tcp-baseline.toml" "$s/latency-decomposition.toml"
expect_ok "network.mtu=4096" compare "$s/mtu-goodput.toml" --vs network.mtu=4096 --set workload.iters=50
expect_ok '"schemes"' compare "$s/mtu-goodput.toml" --vs network.mtu=2048 --set workload.iters=50 --json
"$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2 --set workload.iters=5 -j 1 >"$tmp/j1.csv"
"$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2 --set workload.iters=5 -j 2 >"$tmp/j2.csv"
check "sweep -j1 and -j2 differ" cmp -s "$tmp/j1.csv" "$tmp/j2.csv"
check "sweep: not 4 rows + header" test "$(wc -l <"$tmp/j1.csv")" -eq 5
check "sweep header" grep -q '^network.routing,seed,aggregate_Gbps' "$tmp/j1.csv"
# A sweep in shards (a Slurm job array's way) merges into exactly the table of `sweep -j 1`.
for i in 1 2 3; do
  "$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2 --set workload.iters=5 \
    --shard "$i/3" -o "$tmp/part$i.json"
done
"$bin" merge "$tmp/part3.json" "$tmp/part1.json" "$tmp/part2.json" >"$tmp/merged.csv"
check "merge of 3 shards differs from sweep -j 1 (CSV)" cmp -s "$tmp/j1.csv" "$tmp/merged.csv"
"$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,2 --set workload.iters=5 -j 1 \
  --json >"$tmp/j1.json"
"$bin" merge "$tmp/part2.json" "$tmp/part3.json" "$tmp/part1.json" -o "$tmp/merged.json"
check "merge of 3 shards differs from sweep -j 1 (JSON)" cmp -s "$tmp/j1.json" "$tmp/merged.json"
expect_error "merge: shard 2/3 is missing" merge "$tmp/part1.json" "$tmp/part3.json"
expect_error "part1.json: shard 1/3 again" merge "$tmp/part1.json" "$tmp/part1.json" "$tmp/part2.json" "$tmp/part3.json"
"$bin" sweep "$s/fat-tree-multipath.toml" --param network.routing=ecmp,spray --param seed=1,3 --set workload.iters=5 \
  --shard 2/3 -o "$tmp/other2.json"
expect_error "a part of another sweep" merge "$tmp/part1.json" "$tmp/other2.json" "$tmp/part3.json"
expect_error "--shard: expected I/N with 1 <= I <= N" sweep "$s/fat-tree-multipath.toml" --param seed=1 --shard 0/3
expect_error "not a sweep part" merge "$tmp/j1.json"
"$bin" sweep "$s/mtu-goodput.toml" --param network.mtu=1024,4096 --set workload.iters=20 -o "$tmp/m.json"
check "sweep -o .json: no schema_version" grep -q '"schema_version": 2' "$tmp/m.json"
printf 'command = "lat"\n[workload]\niters = "many"\n' >"$tmp/bad.toml"
expect_error "$tmp/bad.toml:3:9: workload.iters: expected an integer" run "$tmp/bad.toml"
expect_error "bad.toml:3:9: workload.iters" sweep "$tmp/bad.toml" --param network.mtu=1024 -o "$tmp/never.csv"
check "a failed sweep wrote its output" test ! -e "$tmp/never.csv" -a ! -e "$tmp/never.csv.tmp"
expect_error "cannot read the scenario file" run "$tmp/missing.toml"
expect_error "network.mtu: expected an integer" sweep "$s/mtu-goodput.toml" --param network.mtu=1024,big
expect_error "unknown parameter \"switch.bufer\"" run "$s/incast-pfc.toml" --set switch.bufer=1MiB
expect_error "compare: give two or more scenarios" compare "$s/mtu-goodput.toml"
expect_error "runs a different command" compare "$s/mtu-goodput.toml" "$s/tcp-baseline.toml"
expect_error "-o /nonexistent/x.csv: cannot write there" sweep "$s/mtu-goodput.toml" --param network.mtu=1024 -o /nonexistent/x.csv
# [outputs]: `run` writes the files the command-line options would; compare and sweep refuse them.
cat >"$tmp/out.toml" <<EOF
command = "bw"
[workload]
iters = 20
[network]
topology = "single-switch"
hosts = 4
[outputs]
trace = "$tmp/o/trace.json"
pcap = "$tmp/o/cap.pcapng"
csv = "$tmp/o/csv"
sample_interval = "2us"
watch = ["sw0->h1"]
EOF
mkdir -p "$tmp/o"
expect_ok "RDMA_Write BW Test" run "$tmp/out.toml"
check "outputs.trace written" test -s "$tmp/o/trace.json"
check "outputs.pcap written" test -s "$tmp/o/cap.pcapng"
check "outputs.csv + watch + sample_interval" grep -q '^2,2,' "$tmp/o/csv/timeseries.csv"
check "outputs.watch column" grep -q 'queue_bytes sw0->h1' "$tmp/o/csv/timeseries.csv"
expect_error "out.toml:10:7: outputs.csv: compare writes no files" compare "$tmp/out.toml" --vs seed=2
expect_error "out.toml:10:7: outputs.csv: sweep writes one table" sweep "$tmp/out.toml" --param seed=1,2
printf 'command = "budget"\n[outputs]\ncsv = "x"\n' >"$tmp/ob.toml"
expect_error "ob.toml:3:7: outputs.csv: not used by command \"budget\"" run "$tmp/ob.toml"
printf 'command = "lat"\n[outputs]\nsample_interval = "0us"\n' >"$tmp/oi.toml"
expect_error "oi.toml:3:19: outputs.sample_interval: must be > 0" run "$tmp/oi.toml"
printf 'command = "lat"\n[outputs]\ncsvv = "x"\n' >"$tmp/ou.toml"
expect_error "outputs.csvv: unknown key (valid in [outputs]: " run "$tmp/ou.toml"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
