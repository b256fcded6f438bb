#!/usr/bin/env bash
# Regressions where a flag and its scenario key once meant different things, or an option was
# silently ignored: each check names the bug. Usage: drift_regressions_test.sh path/to/rdmasim
set -u
bin=$1
source "$(dirname "$0")/cli_lib.sh"

# compare ran workload.qps = 4, bidirectional = true as one QP one way (0.187 Mpps for both).
printf 'name = "q1"\ncommand = "bw"\n[workload]\nsize = "64KiB"\niters = 200\nqps = 1\n' >"$tmp/q1.toml"
printf 'name = "q4"\ncommand = "bw"\n[workload]\nsize = "64KiB"\niters = 200\nqps = 4\nbidirectional = true\n' >"$tmp/q4.toml"
expect_ok " msg_rate_Mpps                       0.187          0.373    +100.1%" compare "$tmp/q1.toml" "$tmp/q4.toml"
run_rate=$("$bin" run "$tmp/q4.toml" --json | grep -m1 '"MsgRate"' | tr -dc '0-9.')
cmp_rate=$("$bin" compare "$tmp/q1.toml" "$tmp/q4.toml" --json | grep '"msg_rate_Mpps"' | tail -1 | tr -dc '0-9.')
check "run and compare give q4 the same message rate ($run_rate, $cmp_rate)" test -n "$run_rate" -a "$run_rate" = "$cmp_rate"
cli_rate=$("$bin" bw -s 65536 -n 200 -q 4 -b --json | grep -m1 '"MsgRate"' | tr -dc '0-9.')
check "bw -q 4 -b and the q4 scenario agree ($cli_rate, $run_rate)" test "$cli_rate" = "$run_rate"

# compare and sweep printed the numbers of a failed experiment (every QP in RETRY_EXC_ERR) and
# exited 0; the API reported it done. Now: the table, then the failure on stderr, exit 3.
printf 'name = "lossy"\ncommand = "bw"\n[workload]\npattern = "permutation"\niters = 20\n[network]\ntopology = "single-switch"\nhosts = 4\nloss = 0.3\n[params]\nrc.retry_cnt = 1\nrc.timeout = 1\n' >"$tmp/lossy.toml"
expect_failed_run "aggregate_Gbps" "lossy: 4 QPs in RETRY_EXC_ERR" compare "$tmp/lossy.toml" --vs "network.loss=0"
expect_failed_run "network.loss,aggregate_Gbps" "network.loss=0.3: 4 QPs in RETRY_EXC_ERR" sweep "$tmp/lossy.toml" --param network.loss=0,0.3
expect_failed_run '"failure": "4 QPs in RETRY_EXC_ERR"' "network.loss=0.3" sweep "$tmp/lossy.toml" --param network.loss=0,0.3 --json

# A fault's syntax error was reported at the file, not at its key; a bw contradiction found by
# the test's own checks printed "scenario: ..." first and named the flag, not the key's line.
printf 'command = "lat"\n[network]\ntopology = "single-switch"\ndegrade = ["h0-sw0"]\n' >"$tmp/fault.toml"
expect_error "fault.toml:4:11: network.degrade: expected NODE-NODE=VALUE, got \"h0-sw0\"" run "$tmp/fault.toml"
printf 'command = "bw"\n[workload]\nrecv_delay = "20us"\n' >"$tmp/recv.toml"
expect_error "recv.toml:3:14: workload.recv_delay: delays reposting receives; give --rx-depth too" run "$tmp/recv.toml"

# allreduce --topology ring was refused on the command line though a scenario file ran it.
printf 'command = "allreduce"\n[workload]\nmin_bytes = "1M"\nmax_bytes = "1M"\niters = 2\n[network]\ntopology = "ring"\nswitches = 4\nhosts_per_switch = 1\n' \
  >"$tmp/ring.toml"
"$bin" allreduce --topology ring --switches 4 --hosts-per-switch 1 -b 1M -e 1M -n 2 --json >"$tmp/ring_cli.json"
"$bin" run "$tmp/ring.toml" --json >"$tmp/ring_file.json"
check "allreduce on a ring: the same JSON from flags and from a file" cmp -s "$tmp/ring_cli.json" "$tmp/ring_file.json"
check "allreduce on a ring ran 4 ranks" grep -q '"ranks": 4' "$tmp/ring_cli.json"

# coalescing offered --pcap/--trace/--csv/-a/--hop-ledger and did nothing with them.
for opt in "--pcap x.pcap" "--trace x.json" "--csv dir" "-a" "--hop-ledger"; do
  # shellcheck disable=SC2086
  expect_error "The following argument" coalescing $opt
done
"$bin" coalescing --help >"$tmp/coal_help"
check "coalescing --help lists no output it ignores" bash -c "! grep -qE -- '--pcap|--trace|--csv|--hop-ledger|-a,' '$tmp/coal_help'"

# -D 0 ran --iters messages; -n with -D was ignored; -f without -D was ignored.
expect_error "-D/--duration: must be more than 0, got \"0\"" bw -D 0
expect_error "-n/--iters and -D/--duration (workload.iters, workload.duration): give one" bw -D 1ms -n 10
expect_error "-f/--margin: needs -D/--duration" bw -f 1ms

# --use-cuda=0 (perftest: GPU 0) ran from host memory.
"$bin" bw -s 65536 -n 100 --use-cuda=0 --json >"$tmp/cuda0.json"
"$bin" bw -s 65536 -n 100 --mem gpu --json >"$tmp/memgpu.json"
check "--use-cuda=0 is --mem gpu" cmp -s "$tmp/cuda0.json" "$tmp/memgpu.json"
"$bin" bw -s 65536 -n 100 --use_cuda 0 --json >"$tmp/cuda0b.json"
check "--use_cuda 0 (perftest's spelling) is --mem gpu" cmp -s "$tmp/cuda0b.json" "$tmp/memgpu.json"
expect_error "--use-cuda=1: a host has one GPU in this model (index 0)" bw --use-cuda=1
expect_error "--use-cuda: expected a GPU index like 0, got \"x\"" bw --use-cuda=x

# --seed -1 wrapped to 2^64 - 1.
expect_error "--seed: must be 0 or more, got -1" bw --seed -1
expect_error "--seed: must be 0 or more, got -1" allreduce --seed -1
printf 'command = "lat"\nseed = -1\n' >"$tmp/seed.toml"
expect_error "seed: must be 0 or more, got -1" run "$tmp/seed.toml"

# [foo], an unknown empty table, was accepted.
printf 'command = "lat"\n[foo]\n' >"$tmp/foo.toml"
expect_error "foo.toml:2:1: foo: unknown key" run "$tmp/foo.toml"

# A 15,000-level table header crashed `rdmasim run` (stack overflow).
{ printf 'command = "lat"\n[a'; for _ in $(seq 15000); do printf '.a'; done; printf ']\n'; } >"$tmp/deep.toml"
expect_error "deep.toml:2:129: nesting deeper than 64 levels" run "$tmp/deep.toml"

# An RC QP failure exited 1 in single-flow bw but 0 with --pattern; a PFC deadlock exited 0.
# A failed experiment is exit 3 in every mode, after its results.
expect_failed_run "Completion with error at client" "the QP completed with RETRY_EXC_ERR" \
  bw --topology single-switch -n 20 --drop-frames h0-sw0=5 --set rc.retry_cnt=0 --set rc.timeout=1
expect_failed_run "aggregate" "4 QPs in RETRY_EXC_ERR" \
  bw --topology single-switch --hosts 4 --pattern permutation -n 20 --loss 0.3 --set rc.retry_cnt=1 --set rc.timeout=1
expect_failed_run '"flows"' "4 QPs in RETRY_EXC_ERR" \
  bw --topology single-switch --hosts 4 --pattern permutation -n 20 --loss 0.3 --set rc.retry_cnt=1 --set rc.timeout=1 --json
expect_failed_run "seed" "seed 1: 4 QPs in RETRY_EXC_ERR" \
  bw --topology single-switch --hosts 4 --pattern permutation -n 20 --loss 0.3 --set rc.retry_cnt=1 --set rc.timeout=1 --seeds 2
expect_failed_run "PFC DEADLOCK at" "a PFC deadlock" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16

# An all-to-all too large to run took 556 MB and a second to be refused (k=32), or ran out of memory (k=40).
expect_error "the pattern has 255984000 flows (limit 20000)" bw --pattern alltoall --topology fat-tree --k 40

# Output to a full disk exited 0 with no message (and, written via PATH.tmp and a rename, replaced
# a device node such as /dev/full with a regular file). Now: one line naming the file, exit 1;
# special files are written in place (--pcap /dev/stdout pipes to tshark) and never replaced.
expect_io_error() {  # expect_io_error "<stderr substring>" args...
  local want=$1
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq 1 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -qF -- "$want" "$tmp/err" && [[ -c /dev/full ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: rdmasim $* -> rc=$rc, stderr=$(cat "$tmp/err") (wanted exit 1 and '$want'; /dev/full a device)"
  fi
}
if [[ -c /dev/full ]]; then
  expect_io_error "rdmasim: error: pcap: writing /dev/full failed: No space left on device" lat -n 100 --pcap /dev/full
  expect_io_error "rdmasim: error: trace: writing /dev/full failed: No space left on device" lat -n 100 --trace /dev/full
  expect_io_error "rdmasim: error: -o: writing /dev/full failed: No space left on device" run "$tmp/q1.toml" -o /dev/full
  "$bin" lat -n 100 --json >/dev/full 2>"$tmp/err"
  check "--json to a full disk exits 1 naming standard output" \
    test $? -eq 1 -a "$(cat "$tmp/err")" != "" -a -n "$(grep 'writing standard output failed' "$tmp/err")"
fi
"$bin" lat -n 100 --pcap /dev/stdout 2>/dev/null | head -c 4 | od -An -tx1 >"$tmp/magic"
check "--pcap /dev/stdout streams pcapng" grep -q "0a 0d 0d 0a" "$tmp/magic"
# A failed --csv run left an empty directory.
"$bin" bw --topology single-switch -n 20 --drop-frames h0-sw0=5 --set rc.retry_cnt=0 --set rc.timeout=1 \
  --csv "$tmp/csv-failed" >/dev/null 2>&1
check "a failed --csv run leaves no directory" test ! -e "$tmp/csv-failed"
"$bin" bw -n 100 --csv "$tmp/csv-ok" >/dev/null 2>&1
check "a good --csv run creates it with its tables" test -f "$tmp/csv-ok/messages.csv"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
