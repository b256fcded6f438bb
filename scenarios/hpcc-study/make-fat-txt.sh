#!/usr/bin/env bash
# Writes the HPCC paper's evaluation fabric in the ns-3 HPCC simulator's topology.txt format
# (fat.txt: 320 hosts, 20 ToR, 20 Agg, 16 Core; hosts at 100 Gb/s, switch links at 400 Gb/s,
# every link 1 us): 5 pods of 4 ToR and 4 Agg, each ToR to every Agg of its pod, Agg j of
# every pod to Core 4j..4j+3. Node ids as in that file: hosts 0-319, ToR 320-339, Agg 340-359,
# Core 360-375. Usage: make-fat-txt.sh > fat.txt
set -euo pipefail
echo "376 56 480"
seq -s ' ' 320 375
for h in $(seq 0 319); do echo "$h $((320 + h / 16)) 100Gbps 1000ns 0.000000"; done
for t in $(seq 0 19); do
  for a in 0 1 2 3; do echo "$((320 + t)) $((340 + (t / 4) * 4 + a)) 400Gbps 1000ns 0.000000"; done
done
for g in $(seq 0 19); do
  for c in 0 1 2 3; do echo "$((340 + g)) $((360 + (g % 4) * 4 + c)) 400Gbps 1000ns 0.000000"; done
done
