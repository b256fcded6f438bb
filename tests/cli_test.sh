#!/usr/bin/env bash
# CLI behaviour: bad input gives one line on stderr naming the problem and exit code 2; the
# commands run; --json is byte-identical for the same seed. Usage: cli_test.sh path/to/rdmasim
set -u
bin=$1
source "$(dirname "$0")/cli_lib.sh"

expect_error "--size: must be at least 1 byte, got -5" lat -s -5
expect_error "--size: must be at least 1 byte, got 0" lat -s 0
expect_error "iterations must be at least 5" lat -n 4
expect_error "--test: unknown value \"unknown\" (valid: write, read, send)" lat --test unknown
expect_error "unknown parameter \"nic.speed\"" lat --set nic.speed=1
expect_error "link.rate: expected a rate" lat --set link.rate=fast
expect_error "MTU must be one of 256, 512, 1024, 2048, 4096, got 1500" lat --mtu 1500
expect_error "MTU must be one of" lat --mtu 8192
expect_error "--profile: unknown profile \"fast\" (valid: default, seed-demo, cx6-200g)" lat --profile fast
expect_error "TCP has no one-sided write" lat --transport tcp --test write
expect_error "--zero-copy: expected true or false (on or off), got \"maybe\"" lat --zero-copy maybe
expect_error "--bogus" lat --bogus
expect_error "--size: must be at least 1 byte" budget -s 0
expect_error "A subcommand is required" 

expect_ok "RDMA_Write Latency Test" lat -n 100
expect_ok " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] " lat -n 100
expect_ok "RDMA_Read Latency Test" lat --test read -n 50
expect_ok "Send Latency Test" lat --test send -n 50 --link-layer ib
expect_ok "TCP_Send Latency Test" lat --transport tcp -n 50
expect_ok " 8388608 " lat -a -n 5
expect_ok "Latency budget (closed form)" budget
expect_ok "edge3.1.pipeline                         switch           0.3000" budget --stages --topology fat-tree --to h15
expect_ok "zero-copy share" demo -n 200
expect_ok "Usage" lat --help
expect_ok "kernel.tx_stack" list
expect_ok "\"key\": \"link.rate\"" list --json
expect_ok "fat-tree" list
expect_ok "\"kind\": \"routing\"" list --json

"$bin" lat --profile seed-demo -n 300 --json >"$tmp/a.json"
"$bin" lat --profile seed-demo -n 300 --json >"$tmp/b.json"
if cmp -s "$tmp/a.json" "$tmp/b.json" && grep -q '"t_typical"' "$tmp/a.json"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL: --json not byte-identical across runs"; fi

# A fabric bw run with several QPs both ways (ECMP, ECN, PFC, the seed's jitter): byte-identical JSON.
"$bin" bw --topology fat-tree --k 4 --to h15 -q 2 -b -n 100 -t 16 --json >"$tmp/f1.json"
"$bin" bw --topology fat-tree --k 4 --to h15 -q 2 -b -n 100 -t 16 --json >"$tmp/f2.json"
if cmp -s "$tmp/f1.json" "$tmp/f2.json" && grep -q '"conserved": true' "$tmp/f1.json"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL: fabric bw --json not byte-identical across runs (or not conserved)"; fi

# lat t_typical == budget total (jitter off, default profile), via the JSON of both.
lt=$("$bin" lat -s 65536 -n 20 --json | grep -A8 '"exact_ps"' | grep '"t_typical"' | tr -dc '0-9.')
bt=$("$bin" budget -s 65536 --json | grep '"total_ps"' | tr -dc '0-9.')
if [[ -n $lt && $lt == "$bt" ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: lat $lt != budget $bt"; fi

expect_ok "4 equal-cost paths, 5 switches / 6 links each" topo --k 4 --from h0 --to h15
expect_ok "hosts 128, switches 80, links 384" topo --k 8
expect_ok "gpu2 -> nic2 (cross-socket), gpu3 -> nic3 (cross-socket)" topo --topology rail-optimized --server pcie-8gpu --servers 2
expect_ok "PCIe: client cross-socket, server switch" lat --topology rail-optimized --server pcie-8gpu --servers 2 --from s0.gpu2 --to s1.gpu0 -n 5
expect_error "--from: s0.gpu8: the servers have 8 GPUs (gpu0..gpu7)" lat --topology rail-optimized --server pcie-8gpu --servers 2 --from s0.gpu8
expect_error "--agg-iters: 2: rdmasim models 1 only (one operation per iteration)" all_reduce -b 1M -e 1M -n 1 -m 2
expect_ok "1048576        262144     float     sum" all_reduce -b 1M -e 1M -n 1 -m 1 --mtu 1024
expect_ok '"hop_histogram"' topo --k 4 --hops --json
expect_ok "        6        5          192" topo --k 4 --hops
expect_ok "        4        3         1536" topo --k 8 --hops
expect_ok "        6        5        14336" topo --k 8 --hops
expect_ok "bisection bandwidth 400Gbps" topo --topology leaf-spine --leaves 4 --spines 2 --hosts-per-leaf 8
expect_error "fat-tree: k must be even" topo --k 5
expect_error "--to: no host \"h16\"" topo --k 4 --from h0 --to h16
expect_error "--from and --to go together" topo --from h0
expect_error '--topology: unknown value "torus" (valid: back-to-back' topo --topology torus

expect_ok "ECMP route    : h0 -> edge0.0 -> agg0." lat --topology fat-tree --from h0 --to h15 -n 20
expect_ok "route: h0 -> leaf0 -> spine" budget --topology leaf-spine --from h0 --to h9
expect_ok "ECMP route    : h0 -> edge0.0 -> agg0." lat --topology fat-tree --test read --to h15 -n 20
expect_error "--test read over a switched topology runs on a lossless fabric without congestion control" lat --topology fat-tree --test read --loss 1e-4
expect_ok " edge0.0                                0.000     0.000     0.000     0.600  switch" lat --topology fat-tree --to h15 -n 20 --hop-ledger
expect_ok '"per": "message"' bw --topology fat-tree --to h15 -n 20 --hop-ledger --json
expect_ok "Hop-by-hop ledger: mean usec per message" bw --topology fat-tree --pattern incast --incast 4 -n 10 -t 4 --hop-ledger
expect_error "--trace/--pcap/--hop-ledger export one run: drop -a" lat --hop-ledger -a
expect_error "--trace/--pcap/--hop-ledger export one run; --loss-sweep" bw --topology fat-tree --to h15 --loss-sweep 0,1e-4 --hop-ledger
expect_error "--from/--to: hosts are h0..h15" lat --topology fat-tree --to h16
expect_error "--from: no host \"x1\" in this fat-tree (hosts h0..h15 or by name" lat --topology fat-tree --from x1

expect_ok " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]" bw -n 200
expect_ok "RDMA_Write BW Test" bw -n 200 --report-gbits
# --report-gbits: the same run in Gb/s (10^9 bit) instead of MiB/s: factor 8 x 2^20 / 10^9.
g=$("$bin" bw -n 200 --report-gbits | awk '/^ 65536 /{print $4}')
m=$("$bin" bw -n 200 | awk '/^ 65536 /{print $4}')
check "--report-gbits $g Gb/s is $m MiB/s" awk -v g="$g" -v m="$m" 'BEGIN { d = g - m * 8 * 1048576 / 1e9; exit !(g > 90 && d < 0.006 && d > -0.006) }'
expect_ok " 8388608    20 " bw -a -n 20
expect_ok "alltoall traffic, 240 flows of 5 x 65536 B" bw --topology fat-tree --pattern alltoall -n 5 -t 4
expect_ok " CQ Moderation   : 1" bw -n 200 --test send
expect_ok " CQ Moderation   : 32" bw -n 256 --cq-mod 32
expect_ok "RDMA_Read BW Test" bw --test read -n 200
expect_ok " Outstand reads  : 4" bw --test read -n 200 -o 4
expect_ok "RDMA_Read BW Test" bw --test read --topology fat-tree --to h15 -n 200
expect_error "the verbs API's READs are): drop --cc dcqcn" bw --test read --topology fat-tree --cc dcqcn
expect_error "--pattern runs RDMA WRITE flows (or kernel TCP with --transport tcp): --test read with a pattern is not modelled" bw --topology fat-tree --pattern incast --test read -n 5
expect_error "--outs: must be 1..256, got 0" bw --test read -o 0
expect_ok " Number of qps   : 3" bw -n 200 -q 3
expect_ok " local address: LID 0000 QPN 0x0015" bw -n 200 -q 3
expect_ok " QP 1 A->B route : h0 -> edge0.0" bw --topology fat-tree --to h15 -n 50 -q 2
expect_ok "RDMA_Write Bidirectional BW Test" bw -n 200 -b
expect_ok " QP 0 B->A route : h15 -> edge3.1" bw --topology fat-tree --to h15 -n 50 -b
expect_ok '"direction": "B->A"' bw -n 200 -b --json
expect_ok '"duration_s": 0.001' bw -D 1ms --json
expect_ok '"margin_s": 0.0002' bw -D 0.001 -f 200us --json
expect_error "--qp: must be 1..1024, got 0" bw -q 0
expect_error "--duration: expected a time" bw -D soon
expect_error "-f/--margin: twice the margin must be shorter than -D/--duration" bw -D 1ms -f 500us
expect_error "-f/--margin: needs -D/--duration" bw -f 1ms
expect_error "-D/--duration: 0 messages completed inside the measured window" bw --transport tcp -D 1ms
expect_error "--post-list/--cq-mod batch one direction's iterations" bw -b -l 4
expect_ok "Number of qps   : 4" bw -s 2 -q 4 -Q 100 -n 2000
expect_ok " 8388608          26080.045          1.710     0.01          0          1.710     0.01          0" lat -a -n 20
expect_ok "routing ecmp, Ethernet, TCP in lossy class 0" bw --transport tcp --topology single-switch --hosts 4 --pattern incast --incast 2 -n 10
expect_ok " [2] RDMA WRITE 64 B, back-to-back" compare "$(dirname "$0")/../scenarios/tcp-baseline.toml" "$(dirname "$0")/../scenarios/latency-decomposition.toml"
expect_ok "step              us/conn    sum(us)    max(us)    min(us)  total(us)   avg/iter" cmtime -c 10
expect_ok "full connect :          0          0" cmtime -c 10
expect_ok "\"connections\": 5" cmtime -c 5 --json
expect_error "--connections: must be 1..1000000, got 0" cmtime -c 0
expect_error "--transport" cmtime --transport tcp
expect_error "-q/--qp, --cores, -b/--bidirectional and -D/--duration are for the two-host bw test" bw --topology fat-tree --pattern permutation -q 2
expect_error "--cores 3: QPs are placed one process per core, so 1..-q (2)" bw -q 2 --cores 3 -n 100
OMPI_COMM_WORLD_SIZE=3 "$bin" bw -n 100 >"$tmp/mpi.out" 2>"$tmp/mpi.err"
check "bw as one of 3 mpirun ranks: not refused (rc $?)" grep -qF "bw under mpirun with 3 ranks: only a traffic pattern's fabric run (--pattern) runs over MPI ranks" "$tmp/mpi.err"
check "bw as one of 3 mpirun ranks: output written" test ! -s "$tmp/mpi.out"
# Rank 0 alone reports a bad command line and exits 2; another rank says nothing and exits 0,
# so that mpirun does not abort the job before rank 0's line is out.
OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=1 "$bin" bw -n 100 >"$tmp/mpi.out" 2>"$tmp/mpi.err"
rc=$?
check "bw as rank 1 of 3: exit $rc, not 0" test "$rc" -eq 0
check "bw as rank 1 of 3: it said something" test ! -s "$tmp/mpi.err"
OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=1 "$bin" bw --no-such-option >"$tmp/mpi.out" 2>"$tmp/mpi.err"
rc=$?
check "a bad option as rank 1 of 3: exit $rc, not 0" test "$rc" -eq 0
check "a bad option as rank 1 of 3: it said something" test ! -s "$tmp/mpi.err"
OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=0 "$bin" bw --no-such-option >"$tmp/mpi.out" 2>"$tmp/mpi.err"
rc=$?
check "a bad option as rank 0 of 3: exit $rc, not 2" test "$rc" -eq 2
check "a bad option as rank 0 of 3: not said once" test "$(wc -l <"$tmp/mpi.err")" -eq 1
expect_error "--trace draws one core per host: drop --cores (or --trace)" bw -q 2 --cores 2 -n 100 --trace "$tmp/cores.json"
expect_ok "host A: CPU busy 7100.000 usec (99.73% of 2 cores)" bw -s 2 -q 16 --cores 2 -n 20000 --post-list 32 --cq-mod 32
expect_error "--loss-sweep runs one QP one way" bw --topology fat-tree --to h15 --loss-sweep 0,1e-4 -b
expect_error "--tx-depth: must be 1..8192, got 0" bw -t 0

expect_ok "per-flow goodput: min" bw --topology fat-tree --pattern permutation -n 20 -t 8
expect_ok '"aggregate_Gbps"' bw --topology fat-tree --pattern incast --incast 4 -n 20 --json
expect_error "--pattern needs a switched --topology" bw --pattern permutation
expect_ok "out-of-order arrivals at the receivers" bw --topology fat-tree --pattern permutation -n 20 -t 8 --routing spray --set rc.ooo_placement=on
expect_ok "sprayed per packet over 4 equal-cost paths" bw --topology fat-tree --to h15 -n 50 --routing spray
expect_ok "PFC pause frames" bw --topology fat-tree --pattern incast --incast 8 -n 20 -t 8
expect_ok "retransmitted (go-back-N), 1 NAKs, 0 timeouts" bw --topology single-switch --size 65536 -n 20 -t 4 --drop-frames h0-sw0=50
expect_ok "CNPs; rate control at the end" bw --topology single-switch --hosts 3 --to h2 --size 65536 -n 20 --cc dcqcn
expect_ok "Jain's fairness index" bw --topology single-switch --hosts 5 --pattern incast --incast 4 -n 10 -t 4 --cc dcqcn
expect_error "--drop-frames: expected frame numbers like 50 or 50,51" bw --topology single-switch --drop-frames h0-sw0=0
expect_error "--cc: unknown congestion control \"dcqcm\"" bw --topology single-switch --cc dcqcm
expect_ok "C = (1-f_r) C_gbn + f_r C_r" budget --topology single-switch -s 65536 --loss 1e-3
expect_ok "Mathis' Reno/SACK formula" bw --topology single-switch -n 50 --loss-sweep 0,1e-3
expect_ok "TCP sim Gb/s" bw --topology single-switch -n 50 --loss-sweep 0,1e-3
expect_ok "TCP (reno): 920 segments sent, 1 retransmitted (1 fast retransmits, 0 timeouts)" bw --transport tcp --topology single-switch --size 65536 -n 20 -t 4 --drop-frames h0-sw0=50
expect_ok "TCP (dctcp)" bw --transport tcp --tcp-cc dctcp --loss 1e-3 -n 20
expect_ok "TCP: " bw --transport tcp --tcp-cc dctcp --topology single-switch --hosts 5 --pattern incast --incast 4 -n 10 -t 4
expect_error "--tcp-cc: unknown TCP congestion control \"cubic\" (valid: reno, dctcp)" bw --transport tcp --tcp-cc cubic
expect_error "kernel TCP across a fabric runs in" lat --transport tcp --topology single-switch
expect_error "--loss/--drop-frames/--drop-burst need a switched --topology" bw --loss 1e-3
expect_ok "retransmitted (go-back-N), 1 NAKs" bw --topology single-switch -n 40 -t 8 --drop-burst h0-sw0@20us
expect_error "--drop-burst: h0-sw0@30us-20us: the burst must end after it starts" bw --topology single-switch --drop-burst h0-sw0@30us-20us
expect_error "--drop-burst: expected NODE-NODE@T1 or NODE-NODE@T1-T2" bw --topology single-switch --drop-burst h0-sw0=5
expect_error "link fault: no cable between" bw --topology single-switch --drop-burst h0-h1@5us
expect_error "--loss: expected a probability in [0, 1)" bw --topology single-switch --loss 1.5
expect_error "use -s of at least the MTU" budget --topology single-switch --loss 1e-3
expect_ok "share of sum(B_i): mean" bw --topology fat-tree --pattern permutation -n 5 -t 4 --seeds 3
expect_ok "\"share_of_ideal\"" bw --topology fat-tree --pattern permutation -n 5 -t 4 --seeds 2 --json
expect_ok "RoCE lossy" bw --topology fat-tree --pattern incast -n 5 -t 4 --set switch.lossless=off
expect_ok "InfiniBand credits" bw --topology fat-tree --pattern incast -n 5 -t 4 --link-layer ib
expect_error "--degrade: expected NODE-NODE=VALUE" bw --topology fat-tree --degrade edge0.0=40Gbps
expect_error "no cable between \"h0\" and \"h5\"" bw --topology fat-tree --degrade h0-h5=40Gbps
expect_error "--link-loss: expected a probability" bw --topology fat-tree --link-loss h0-edge0.0=2
expect_error "need a switched --topology" bw --degrade h0-h1=40Gbps
expect_ok "rx_err" bw --topology fat-tree --pattern permutation -n 20 -t 8 -s 65536 --link-loss agg0.0-core0=0.05
expect_error "--seeds" bw --topology fat-tree --pattern permutation --seeds 0
expect_error "switch.pfc_headroom" bw --topology fat-tree --pattern incast -n 5 --set switch.pfc_headroom=100B
expect_error "switch.data_tc" bw --topology fat-tree --pattern incast -n 5 --set switch.data_tc=9
expect_ok "adaptive per packet; unloaded: h0 -> edge0.0" bw --topology fat-tree --to h15 --routing adaptive -n 10
expect_error "--routing spray is for bw (lat and budget follow the flow's ECMP route)" lat --topology fat-tree --routing spray
# PFC pathologies: the ring deadlock is reported with its cycle, the watchdog and up-down routing complete.
expect_failed_run "PFC DEADLOCK at 1021.259 us: 4 paused queues" "a PFC deadlock" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16
expect_failed_run "sw3->sw0               priority 3    129636 B queued, paused 1000.000 us  -> waits for sw0->sw1" "a PFC deadlock" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16
expect_failed_run '"deadlock_reports": [' "a PFC deadlock" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16 --json
expect_ok "lossless frames dropped by it" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 20 -t 16 --set switch.pfc_watchdog=200us --set switch.pfc_watchdog_restore=20us
expect_ok "h2    h0     49154       200" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16 --ring-routing up-down
expect_error "stride: must be 1..3" bw --topology ring --switches 4 --pattern stride --stride 4
expect_error "--switches: must be 3..10000, got 2" bw --topology ring --switches 2 --pattern stride
expect_error "--ring-routing: unknown value \"shortest\"" bw --topology ring --pattern stride --ring-routing shortest
expect_error "switch.pfc_watchdog_restore" bw --topology ring --pattern stride --set switch.pfc_watchdog_restore=0us
expect_ok "ring" list
expect_ok "link faults: 2 links down/up, 2 routing recomputations, 2040 frames lost to down links" bw --topology fat-tree --to h15 -n 2000 -s 65536 --link-down agg0.1-core2@2ms-6ms --set switch.route_convergence=1ms
expect_error "--link-down: expected NODE-NODE@T1 or NODE-NODE@T1-T2" bw --topology fat-tree --to h15 --link-down agg0.1-core2
expect_error "only links between switches go down" bw --topology fat-tree --to h15 --link-down h0-edge0.0@1ms
expect_error "must come back up after it goes down" bw --topology fat-tree --to h15 --link-down agg0.1-core2@2ms-1ms

# Regressions from review: crashes, hangs and overflow on accepted-looking input.
expect_error "traffic patterns need at least 2 hosts" bw --pattern alltoall --topology leaf-spine --leaves 1 --hosts-per-leaf 1
expect_error "traffic patterns need at least 2 hosts" bw --pattern permutation --topology leaf-spine --leaves 1 --hosts-per-leaf 1
expect_error "link.rate: must be 1Mbps..100Tbps" lat --set link.rate=1bps -s 1073741824 -n 5
expect_error "kernel.syscall: must be 0s..10s" lat --transport tcp --set kernel.syscall=9000000s
expect_error "host.tx_copies: integer out of range" lat --set host.tx_copies=-4294967290
expect_error "pcie.gen: integer out of range" lat --set pcie.gen=99999999999999999999999
expect_error "limit 1048576" lat -s 1073741824 --mtu 256 -n 5
expect_error "would simulate more than 11 days" lat -n 100000000 -s 1073741824
expect_error "cannot write there" calibrate --quick -o /nonexistent/dir/x.toml
expect_error "--hosts: must be 2..100000, got 2000000000" topo --topology single-switch --hosts 2000000000
expect_error "flows (limit 20000)" bw --pattern alltoall --topology fat-tree --k 16
expect_error "must stay below 65536" bw --topology fat-tree --pattern permutation --sport 65535

# calibrate writes a host profile that lat reads; a broken one is a located error.
expect_ok "Fitted host profile" calibrate --quick --sizes 1 1024 -o "$tmp/host.toml"
expect_ok "TCP_Send Latency Test" lat --transport tcp --topology loopback -n 20 --host-profile "$tmp/host.toml"
printf '[parameters.kernel]\nsyscall = "fast"\n' >"$tmp/bad.toml"
expect_error "bad.toml:2:11: parameters.kernel.syscall: expected a time" lat --host-profile "$tmp/bad.toml"
printf '[parameters.kernel]\nsyscal = "1ns"\n' >"$tmp/bad2.toml"
expect_error "bad2.toml:2:10: unknown parameter \"kernel.syscal\"" lat --host-profile "$tmp/bad2.toml"
expect_error "RDMA loopback is not modelled" lat --topology loopback
expect_error "RDMA switches" lat --transport tcp --zero-copy on

# Exports: --trace (Perfetto JSON) and --pcap (pcapng). A traced message's critical-path slices
# add up to the reported one-way latency, in picoseconds; same seed, same bytes; no file when
# the run fails; bad paths and port names exit 2 before simulating.
"$bin" lat -n 20 --json --trace "$tmp/t.json" >"$tmp/lat.json"
lt=$(grep -A8 '"exact_ps"' "$tmp/lat.json" | grep '"t_typical"' | tr -dc '0-9.')
sum=$(awk -F'"dur_ps":' '/"msg":1,"pkt"/ {split($2, a, "}"); s += a[1]} END {print s ".0"}' "$tmp/t.json")
check "trace: msg 1 slices sum $sum != t_typical $lt" test -n "$lt" -a "$sum" = "$lt"
check "trace: not a trace-event file" grep -q '^{"traceEvents":\[$' "$tmp/t.json"
check "trace: no .tmp left" test ! -e "$tmp/t.json.tmp"
if command -v python3 >/dev/null; then check "trace: invalid JSON" python3 -m json.tool "$tmp/t.json" /dev/null; fi
for i in 1 2; do
  "$bin" bw --topology fat-tree --pattern incast --incast 4 -n 5 -t 4 --trace "$tmp/d$i.json" --pcap "$tmp/d$i.pcapng" >/dev/null
done
check "trace/pcap not byte-identical for the same seed" cmp -s "$tmp/d1.json" "$tmp/d2.json"
check "pcap not byte-identical for the same seed" cmp -s "$tmp/d1.pcapng" "$tmp/d2.pcapng"
expect_ok "RDMA_Write BW Test" bw -n 20 --trace-messages 3 --trace "$tmp/b.json" --pcap "$tmp/b.pcapng" --pcap-frames 10
check "--trace-messages 3: not 3 messages" test "$(grep -c '"cat":"message"' "$tmp/b.json")" -eq 3
expect_error "--trace /nonexistent/dir/t.json: cannot write there" lat --trace /nonexistent/dir/t.json
expect_error "--pcap /nonexistent/dir/p.pcapng: cannot write there" bw --pcap /nonexistent/dir/p.pcapng
expect_error '--pcap-port: no port "edge9.9->h0"' bw --topology fat-tree --pattern permutation -n 5 --pcap "$tmp/x.pcapng" --pcap-port 'edge9.9->h0' --trace "$tmp/x.json"
check "a failed run left an export file" test ! -e "$tmp/x.pcapng" -a ! -e "$tmp/x.pcapng.tmp" -a ! -e "$tmp/x.json" -a ! -e "$tmp/x.json.tmp"
expect_error "--pcap-port needs a switched --topology" lat --pcap "$tmp/y.pcapng" --pcap-port 'h0->h1'
expect_error "--pcap-port needs --pcap FILE" lat --pcap-port 'h0->h1'
expect_error "export one run: drop -a" lat -a --trace "$tmp/y.json"
expect_error "loopback topology has no wire" lat --transport tcp --topology loopback --pcap "$tmp/y.pcapng"
# tshark decodes the capture: a 16 KiB WRITE is First, Middle, Middle, Last with PSNs counting
# up, each acknowledged by an ACK carrying the PSN of its last packet. Skipped only without tshark.
if command -v tshark >/dev/null; then
  "$bin" bw -n 5 -s 16384 -t 2 --pcap "$tmp/s.pcapng" >/dev/null
  got=$(tshark -r "$tmp/s.pcapng" -T fields -e infiniband.bth.opcode -e infiniband.bth.psn 2>"$tmp/tshark.err" |
    awk '$1 == 17 {a = a " ack" $2; next} {d = d " " $1 ":" $2} END {print d " |" a}')
  want=" 6:0 7:1 7:2 8:3 6:4 7:5 7:6 8:7 6:8 7:9 7:10 8:11 6:12 7:13 7:14 8:15 6:16 7:17 7:18 8:19 | ack3 ack7 ack11 ack15 ack19"
  check "tshark: got '$got', wanted '$want' ($(head -c 200 "$tmp/tshark.err"))" test "$got" = "$want"
else
  echo "SKIP: tshark not installed (scripts/install-deps.sh installs it)"
fi

# Host and GPU data path: bad combinations are one clear error, exit 2.
expect_error "--gpudirect on with --transport tcp" lat --transport tcp --mem gpu --gpudirect on
expect_error "--staging-chunk: chunk size 0 is not a pipeline" lat --mem gpu --gpudirect off --staging-chunk 0
expect_error "not a multiple of the packet size 4096" lat --use-cuda --gpudirect off --staging-chunk 1000
expect_error "--staging-chunk applies to the staged path" lat --use-cuda --staging-chunk 8192
expect_error "apply to GPU buffers: add --mem gpu" lat --gpudirect on
expect_error "--mem: unknown value \"tpu\" (valid: host, gpu," lat --mem tpu
expect_error "--rx-frames: must be 1..65535" lat --rx-frames 0
expect_error "--qp-pool pre-builds the connections" lat --conn-reuse 5 --qp-pool
expect_ok "Connections: 5 set up in the timed loop" lat --connect-per-msg --topology single-switch -n 6
expect_ok "GPUDirect RDMA (NIC <-> GPU peer-to-peer, pcie.topology cross-socket)" \
  bw --profile cx6-200g --use-cuda --set pcie.topology=cross-socket -n 200
expect_ok "CPU-staged, pipelined in 65536 B chunks" lat --mem gpu,host --gpudirect off --staging-chunk 64KiB -s 1048576 -n 10
expect_ok "Connections: 5 set up in the timed loop" lat --connect-per-msg -n 6
expect_ok "QP pool, pre-built outside the timed loop" lat --qp-pool -n 6
expect_ok "Connections: 6 set up in the timed loop (one per 1 messages)" bw --connect-per-msg -n 6
expect_ok "QP pool, pre-built outside the timed loop" bw --qp-pool -n 6
expect_ok "Connections: 3 set up in the timed loop (one per 2 messages)" bw --conn-reuse 2 --topology single-switch -n 6
expect_error "--connect-per-msg / --conn-reuse model RC connections" lat --connect-per-msg --transport tcp
expect_ok "Receiver: 10 messages completed by its application" bw --mem host,gpu --gpudirect off -s 65536 -n 10
expect_ok "RNR NAKs" bw --test send --topology single-switch -s 4096 -n 200 --rx-depth 4 --recv-delay 5us --set rc.min_rnr_timer=1
expect_error "--rx-depth: receives are consumed by SENDs" bw --rx-depth 4 --topology single-switch
expect_error "--recv-delay: delays reposting receives" bw --test send --topology single-switch --recv-delay 5us
expect_error "rc.min_rnr_timer: must be 0..31" bw --set rc.min_rnr_timer=32
expect_ok "rx-frames" coalescing --frames 1,8 -n 20
expect_ok "32 interrupts, 256 moderated packets" lat --transport tcp -s 92672 --rx-frames 8 --rx-usecs 1ms -n 5

# --csv: tables in a directory, nothing written when the run fails.
csvdir=$(mktemp -d)
"$bin" lat -n 20 --csv "$csvdir/lat" >/dev/null
check "lat --csv writes messages.csv with one row per sample" [ "$(wc -l <"$csvdir/lat/messages.csv")" -eq 20 ]
"$bin" bw --topology single-switch --hosts 4 --pattern incast --incast 2 -n 10 --csv "$csvdir/bw" >/dev/null
check "bw --pattern --csv writes flows.csv and ports.csv" [ -s "$csvdir/bw/flows.csv" -a -s "$csvdir/bw/ports.csv" ]
"$bin" bw -n 200 --post-list 4 --csv "$csvdir/batched" >/dev/null
check "bw --post-list --csv writes each WQE's post and completion and no time series" \
  [ "$(wc -l <"$csvdir/batched/messages.csv")" -eq 201 -a ! -e "$csvdir/batched/timeseries.csv" ]
expect_error "--csv $csvdir/lat/messages.csv: not a directory" lat -n 10 --csv "$csvdir/lat/messages.csv"
"$bin" lat -n 4 --csv "$csvdir/bad" >/dev/null 2>&1
check "a failed run writes no CSV" [ ! -e "$csvdir/bad/messages.csv" ]
"$bin" lat -n 200 --json >"$csvdir/plain.json"
"$bin" lat -n 200 --json --csv "$csvdir/ts" >"$csvdir/observed.json"
check "lat --csv's time series does not change the run" cmp -s "$csvdir/plain.json" "$csvdir/observed.json"
check "lat --csv writes timeseries.csv" [ "$(head -1 "$csvdir/ts/timeseries.csv")" = "t_us,dt_us,messages,total_messages,gbps,p50_us,p99_us,max_us,events" ]
"$bin" bw --topology single-switch --hosts 4 --pattern incast --incast 2 -n 10 --csv "$csvdir/w" --watch 'sw0->h0' \
  --sample-interval 5us >/dev/null 2>"$csvdir/w.err"
check "bw --watch adds the port's queue to timeseries.csv" grep -q 'queue_bytes sw0->h0' "$csvdir/w/timeseries.csv"
check "bw --sample-interval fixes the slices" [ "$(awk -F, 'NR==2 {print $2}' "$csvdir/w/timeseries.csv")" = 5 ]
check "no progress line when stderr is not a terminal" [ ! -s "$csvdir/w.err" ]
expect_error "--watch: no fabric port \"sw0->h9\"" bw --topology single-switch --hosts 4 --pattern incast --incast 2 -n 10 \
  --csv "$csvdir/nw" --watch 'sw0->h9'
check "an unknown --watch port writes no CSV" [ ! -e "$csvdir/nw/timeseries.csv" ]
expect_error "--watch: the watched ports go to timeseries.csv: give --csv DIR" bw --watch 'sw0->h0'
expect_error "--sample-interval: expected" lat --csv "$csvdir/si" --sample-interval fast
rm -rf "$csvdir"

# docs/json.md's keys against real output: tests/json_schema_test.py (ctest json_documents).
# lat's ping-pong has no transport to resend a frame: loss and frame-dropping faults are refused.
expect_error "lat: --loss loses frames and the ping-pong has no transport to resend them" lat --topology single-switch --loss 0.01
expect_error "lat: --drop-frames loses frames" lat --topology single-switch --drop-frames h0-sw0=3
expect_error "lat: --link-down loses frames" lat --topology fat-tree --to h15 --link-down agg0.0-core0@1us-2us
expect_error "lat: --link-loss loses frames" lat --topology single-switch --link-loss h0-sw0=1e-3
expect_error "lat: --drop-burst loses frames" lat --topology single-switch --drop-burst h0-sw0@1us-2us
expect_error "drop --drop-frames" lat --topology single-switch --test read --drop-frames h0-sw0=3
expect_ok "Go-back-N goodput under loss" budget --topology single-switch -s 65536 --loss 0.01
# Batching: post lists and CQ moderation; a list larger than the SQ depth is one error.
expect_ok " 2               625      20000     70.625" bw -s 2 -n 20000 --post-list 32
expect_ok "one WQE in 32 signaled" bw -s 2 -n 2000 --cq-mod 32
expect_error "--post-list 256 is larger than the SQ depth (--tx-depth 128)" bw --post-list 256
expect_error "--cq-mod 300 is larger than the SQ depth (--tx-depth 128)" bw -Q 300
expect_error "--post-list/--cq-mod batch the single-QP bw test" bw --topology single-switch --pattern permutation -l 4

# AllReduce: the nccl-tests table; bad input is one error.
expect_ok "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong" allreduce -b 1M -e 1M -n 1 -w 0
expect_ok "# Out of bounds values : 0 OK" allreduce --hosts 4 -b 64K -e 256K -n 1 --algo halving-doubling --gpudirect off
expect_error "halving-doubling needs a power-of-two number of ranks, got 6" allreduce --hosts 6 --algo halving-doubling -b 1M -e 1M
expect_error "--minbytes: expected a size like 8, 64K, 32M or 1G, got \"12Q\"" allreduce -b 12Q
expect_error "--nodes: the topology has 8 hosts" allreduce --nodes 9 -b 1M -e 1M
# GPU server fabrics: servers, rails, planes and each rail's path diversity; NICs by name.
expect_ok "  servers 8 x 8 NICs (one rail each), 2 scalable units, 1 plane" topo --topology rail-optimized --servers 8 --servers-per-su 4 --spines 4
expect_ok "    3       2        1 / 2        4 / 4        4 / 4" topo --topology rail-optimized --servers 8 --servers-per-su 4 --spines 4
expect_ok "s0.nic0 -> s5.nic3: 4 equal-cost paths, 3 switches / 4 links each" topo --topology rail-optimized --servers 8 --servers-per-su 4 --spines 4 --from s0.nic0 --to s5.nic3
expect_ok "  servers 4 x 4 NICs (one rail each), 2 scalable units, 2 planes (each NIC one port per plane)" topo --topology multi-plane --servers 4 --servers-per-su 2 --nics-per-server 4
expect_error "--to: no host \"s0.nic9\" in this rail-optimized" topo --topology rail-optimized --from s0.nic0 --to s0.nic9
expect_error "no path from s0.nic0.p0 to s1.nic0.p1: they are on different planes" bw --topology multi-plane --servers 2 --nics-per-server 2 --from s0.nic0.p0 --to s1.nic0.p1 -n 10
expect_ok "# rdmasim all_reduce: ring on rail-optimized, 2 servers x 4 GPUs" all_reduce --topology rail-optimized --servers 2 --nics-per-server 4 -g 4 -b 1M -e 1M -n 1
# Topology files: written, read back, run; located errors.
tmpd=$(mktemp -d)
"$bin" topo --topology rail-optimized --servers 2 --nics-per-server 2 --spines 2 --write-topology "$tmpd/r.topo" >/dev/null
expect_ok "s0.nic0 -> s1.nic1: 2 equal-cost paths" topo --topology file --topology-file "$tmpd/r.topo" --from s0.nic0 --to s1.nic1
printf 'rdmasim-topology 1\nswitch sw\nhost a\nhost b\nlink a sw rate=100Gbps length=3m\nlink b sw rate=fast length=3m\n' >"$tmpd/bad.topo"
expect_error "rdmasim: error: $tmpd/bad.topo:6:16: rate: expected a rate like \"100Gbps\", got \"fast\"" lat --topology file --topology-file "$tmpd/bad.topo"
printf '3 1 2\n0\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps 0.001ms 0\n' >"$tmpd/topology.txt"
expect_ok "h1 -> h2: 1 equal-cost path, 1 switches / 2 links each" topo --topology file --topology-file "$tmpd/topology.txt" --from h1 --to h2
# On an HPCC topology.txt, flow.txt and fct.txt name the file's node ids (here 1 and 2; node 0 is the switch).
printf '1\n1 2 3 100 2000 0.000001\n' >"$tmpd/flow.txt"
"$bin" flows --topology file --topology-file "$tmpd/topology.txt" --flow-file "$tmpd/flow.txt" --fct-out "$tmpd/fct.txt" >/dev/null
check "fct.txt names the topology.txt's node ids" awk 'NR == 1 { exit !($1 == "0b000101" && $2 == "0b000201" && $5 == 2000) } END { exit NR != 1 }' "$tmpd/fct.txt"
expect_error "--topology-file: needs --topology file (the topology is fat-tree)" lat --topology fat-tree --topology-file "$tmpd/topology.txt"
expect_error "--topology file needs --topology-file PATH" lat --topology file
rm -rf "$tmpd"
expect_ok " N/A" all_reduce -c 0 -b 1M -e 1M -n 1
expect_error "--check: must be 0..1" all_reduce -c 2
# nccl-tests' other programs: their own table lines (redop, root) and algorithms.
expect_ok "# Collective test starting: all_gather_perf" all_gather --hosts 4 -b 1M -e 1M -n 1
expect_ok "      262144         16384     float    none      -1 " alltoall --hosts 4 -b 256K -e 256K -n 1
expect_ok "     1048576        262144     float    none       0 " broadcast --hosts 4 -b 1M -e 1M -n 1
expect_ok "# Out of bounds values : 0 OK" reduce_scatter --hosts 4 --algo recursive-halving -b 1M -e 1M -n 1
expect_ok "1 steps per rank, 1048576 bytes sent by rank 0 (S = 1048576.0)" sendrecv --hosts 4 -b 1M -e 1M -n 1
expect_error "command line: --algo: unknown alltoall algorithm \"ring\" (valid: windowed, direct, pairwise)" alltoall --algo ring
expect_error "--root: 3: rdmasim models root 0 only" broadcast -r 3
# A collective's barrier is the longest cable's propagation: with every cable 0 m long it is
# shorter than a one-LP cut's lookahead (1 us), and several iterations on threads are refused.
expect_error "--threads: the barrier between iterations (the longest cable's propagation, 0 ps) is shorter than the lookahead (1000000 ps): run one iteration (-n 1 -w 0)" all_reduce --hosts 4 --topology single-switch --set link.length=0m -b 1M -e 1M -n 2 --threads 1

# perftest and nccl-tests habits: hardware selection accepted with a note, other transports refused.
expect_ok "rdmasim 0.1.0" --version
expect_ok "rdmasim 0.1.0" bw --version
# The heap: re-executed once with glibc's huge-page tunable (core/huge_pages.hpp), unless the
# user set GLIBC_TUNABLES or RDMASIM_HUGE_PAGES=0, or a sanitizer's allocator runs it.
# (gcc links the sanitizer's runtime as a library, clang into the program.)
if ldd "$bin" 2>/dev/null | grep -q -e libasan -e libtsan || grep -qa -e __asan_init -e __tsan_init "$bin"; then heap="heap: 4 KiB pages"; else heap="heap: transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1)"; fi
check "--version names the heap's pages" sh -c "env -u GLIBC_TUNABLES '$bin' --version | grep -qxF '$heap'"
check "RDMASIM_HUGE_PAGES=0 keeps 4 KiB pages" sh -c "env -u GLIBC_TUNABLES RDMASIM_HUGE_PAGES=0 '$bin' --version | grep -qxF 'heap: 4 KiB pages'"
check "GLIBC_TUNABLES set to the tunable is named as huge pages" sh -c "GLIBC_TUNABLES=glibc.malloc.hugetlb=1 '$bin' --version | grep -qxF 'heap: transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1)'"
check "the user's GLIBC_TUNABLES is kept" sh -c "GLIBC_TUNABLES=glibc.malloc.arena_max=2 '$bin' --version | grep -qxF 'heap: 4 KiB pages (GLIBC_TUNABLES=glibc.malloc.arena_max=2)'"
printf 'command = "lat"\nworkload.size = 3\n' > "$tmp/stdin.toml"
check "the re-executed program keeps its input" sh -c "env -u GLIBC_TUNABLES '$bin' run /dev/stdin < '$tmp/stdin.toml' | grep -qE '^ +3 +1000 '"
check "the re-executed program keeps its exit status" sh -c "env -u GLIBC_TUNABLES '$bin' bw -s 3x >/dev/null 2>&1; test \$? -eq 2"
expect_error "unknown command \"nosuch\" (valid: lat, budget, bw, all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv, flows, demo" nosuch
expect_ok " #bytes #iterations" lat -d mlx5_0 -i 1 -x 3 -p 18515 -F -c RC -n 10
check "-d mlx5_0 gets a note on stderr" sh -c "'$bin' lat -d mlx5_0 -n 10 2>&1 >/dev/null | grep -q 'note: -d mlx5_0: ignored (the simulated NIC is the profile'"
expect_error "--connection: UD: rdmasim models RC (reliable connected) QPs only" bw -c UD
expect_error "--run_infinitely: a simulation needs an end" bw --run_infinitely
expect_ok "# Out of bounds values : 0 OK" allreduce -c 1 -o sum -d float -t 1 -z 0 -a 3 -b 1M -e 1M -n 1
expect_error "--op: max: rdmasim models sum only" allreduce -o max

# Open-loop flows: the slowdown table, the HPCC simulator's flow.txt in and fct.txt out.
expect_ok " all                    40 " flows --flows 40 --cdf hadoop --load 0.5
flowdir=$(mktemp -d)
printf '3\n0 15 3 100 100000 0.000001\n4 15 3 100 100000 0.000001\n1 2 3 100 2000 0.0005\n' >"$flowdir/flow.txt"
"$bin" flows --flow-file "$flowdir/flow.txt" --fct-out "$flowdir/fct.txt" >/dev/null
check "flows --fct-out writes one HPCC fct.txt line per flow" [ "$(wc -l <"$flowdir/fct.txt")" -eq 3 ]
check "fct.txt: the third flow alone has FCT = its ideal FCT" \
  awk 'NR == 3 { exit !($1 == "0b000101" && $2 == "0b000201" && $5 == 2000 && $6 == 500000 && $7 == $8) }' "$flowdir/fct.txt"
printf '0 0\n1000 50\n4000 100\n' >"$flowdir/my.cdf"
expect_ok " 10KB - 100KB            0 " flows --cdf "$flowdir/my.cdf" --flows 30
expect_error "--cdf: \"nope\" is neither a distribution (websearch, hadoop, alistorage, googlerpc) nor a readable file" flows --cdf nope
expect_error "--flow-file lists the flows: drop --cdf/--load/--flows/-D" flows --flow-file "$flowdir/flow.txt" --load 0.5
printf '1\n0 1 3 100 5000\n' >"$flowdir/bad.txt"
expect_error "bad.txt:2: expected \"src dst priority dport size start_seconds\", got \"0 1 3 100 5000\"" flows --flow-file "$flowdir/bad.txt"
expect_error "flows: needs a switched --topology" flows --topology back-to-back
pauses=$("$bin" flows --cdf websearch --load 0.5 -D 200us --pfc-out "$flowdir/pfc.txt" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["fabric"]["pause_frames"])')
check "flows --pfc-out writes one HPCC pfc.txt line per PFC frame ($pauses)" [ "$(wc -l <"$flowdir/pfc.txt")" -eq "$pauses" -a "$pauses" -gt 0 ]
check "pfc.txt lines are \"time_ns node node_type if_index 1|0\"" awk 'NF != 5 || $4 < 1 || ($5 != 0 && $5 != 1) { exit 1 }' "$flowdir/pfc.txt"
"$bin" flows --flows 10 --csv "$flowdir/csv" >/dev/null
check "flows --csv writes flows.csv (a header and 10 rows), slowdown.csv and ports.csv" \
  [ "$(wc -l <"$flowdir/csv/flows.csv")" -eq 11 -a -s "$flowdir/csv/slowdown.csv" -a -s "$flowdir/csv/ports.csv" ]
check "flows.csv: every flow completed, slowdown = fct / ideal" \
  awk -F, 'NR > 1 && !($7 == 1 && ($8 / $9 - $10 < 1e-9) && ($10 - $8 / $9 < 1e-9)) { bad = 1 } END { exit bad }' "$flowdir/csv/flows.csv"
printf 'rdmasim-flows 1\n0us 0 15 64KiB tc=1\n3us 1 15 64KiB tc=1\n' >"$flowdir/own.txt"
expect_ok "open-loop flows: 2 flows (2 completed)" flows --flow-file "$flowdir/own.txt"
# Bursts at 1, 2 and 3 us (up to the last listed start), 4 senders each.
expect_ok "open-loop flows: 14 flows (14 completed)" flows --flow-file "$flowdir/own.txt" --incast-every 1us --incast-fanin 4
expect_error "--flow-tc: the flow file gives each flow's class" flows --flow-file "$flowdir/own.txt" --flow-tc 2
expect_error "--incast-fanin: 16 senders need more than 16 hosts" flows --incast-every 100us --incast-fanin 16
expect_error "--incast-size: must be at least 1 byte" flows --incast-every 100us --incast-size 0B
expect_error "--flow-tc: must be -1..7, got 8" flows --flow-tc 8

# --transport-recovery: the RC's loss recovery by name (rc.selective_repeat).
expect_ok "36 retransmitted (selective repeat)" bw --topology single-switch -n 1000 --loss 1e-3 --transport-recovery selective-repeat
expect_ok "566 retransmitted (go-back-N)" bw --topology single-switch -n 1000 --loss 1e-3 --transport-recovery go-back-n
expect_error "--transport-recovery: unknown value \"sr\" (valid: go-back-n, selective-repeat)" bw --transport-recovery sr
expect_error "--transport-recovery sets rc.selective_repeat; drop one of them" bw --topology single-switch --transport-recovery go-back-n --set rc.selective_repeat=on

# --threads: a pattern's fabric cut into LPs on worker threads; the same report on any number.
threads_args=(bw --pattern permutation --topology fat-tree --k 4 -s 65536 -n 20 --json)
check "--threads 1, 2 and 4 print the same JSON" \
  bash -c '[ "$("$0" "${@}" --threads 1)" = "$("$0" "${@}" --threads 2)" ] && [ "$("$0" "${@}" --threads 1)" = "$("$0" "${@}" --threads 4)" ]' "$bin" "${threads_args[@]}"
# k=8 with DCQCN and a link going down (the same on 1, 2 and 4 threads, frames lost to it), and
# cables that corrupt data and ACKs.
same_on_threads() {
  check "$1" bash -c 'want="$1"; shift; one="$("$0" "${@}" --threads 1)" && [ "$one" = "$("$0" "${@}" --threads 2)" ] && [ "$one" = "$("$0" "${@}" --threads 4)" ] && grep -q "$want" <<<"$one"' "$bin" "$2" "${@:3}"
}
for pattern in "permutation" "incast --incast 31"; do
  same_on_threads "--threads 1, 2 and 4: a k=8 $pattern with DCQCN and a link going down" '"link_drops": [1-9]' \
    bw --pattern $pattern --topology fat-tree --k 8 -s 65536 -n 20 --cc dcqcn --link-down agg0.1-core4@20us-60us --set switch.route_convergence=10us --json
done
same_on_threads "--threads 1, 2 and 4: a k=4 permutation over cables that lose frames" '"retransmitted": [1-9]' \
  bw --pattern permutation --topology fat-tree --k 4 -s 65536 -n 20 --loss 5e-3 --json
same_on_threads "--threads 1, 2 and 4: a k=4 all_reduce of 2 GPUs a host with DCQCN and a link going down" '"wrong": 0' \
  all_reduce --topology fat-tree --k 4 -g 2 -b 1M -e 2M -n 2 --cc dcqcn --link-down agg0.1-core2@20us-60us --json
same_on_threads "--threads 1, 2 and 4: an alltoall over 4 scalable units of DGX H100" '"wrong": 0' \
  alltoall --topology rail-optimized --server dgx-h100 --servers 8 --servers-per-su 2 --spines 4 -g 8 -b 4M -e 4M -n 1 --json
expect_error "load balancer 'adaptive' (it reads the queues or the time) cannot run in a partitioned fabric" all_reduce --topology fat-tree --routing adaptive --threads 2
same_on_threads "--threads 1, 2 and 4: open-loop WebSearch flows at 50 % load with HPCC" '"completed": 1[0-9]' \
  flows --topology fat-tree --k 4 --cdf websearch --load 0.5 -D 300us --cc hpcc --json
expect_error "--threads: a partitioned run keeps no PFC log (--pfc-out)" flows --topology fat-tree --k 4 -D 100us --threads 2 --pfc-out "$flowdir/pfc.txt"
expect_failed_run "PFC DEADLOCK at 1021.3" "a PFC deadlock" bw --topology ring --switches 4 --pattern stride --stride 2 -s 65536 -n 200 -t 16 --threads 2
expect_error "--threads runs a --pattern's fabric on threads; the two-host test runs on one" bw --threads 2
expect_error "--threads: kernel TCP flows (--transport tcp) do not run partitioned" bw --pattern permutation --topology fat-tree --transport tcp --threads 2
expect_error "load balancer 'adaptive' (it reads the queues or the time) cannot run in a partitioned fabric" bw --pattern permutation --topology fat-tree --routing adaptive --threads 2
same_on_threads "--threads 1, 2 and 4: a k=8 31-to-1 incast with HPCC" '"completed": 20' \
  bw --pattern incast --incast 31 --topology fat-tree --k 8 -s 65536 -n 20 --cc hpcc --json

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
