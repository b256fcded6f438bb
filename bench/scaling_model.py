#!/usr/bin/env python3
"""The speed-up a window-synchronous parallel run of a fabric would reach (docs/parallel.md).

Reads `fabric_bench --k K --window 50ns` output (one or more runs, from a file or stdin) and
prints, for P = 2, 4, ... workers, the predicted speed-up

    S(P) = T1 / (T1 * imbalance(P) / P + W * sync(P))

T1 is the run's one-core wall time, W its windows with events, imbalance(P) the largest
partition's share of packet-hops against an even 1/P (pods dealt to partitions in turn), and
sync(P) one window's synchronization: `--sync-us` for two workers, growing as log2(P) (a tree
barrier); with `--mpi-round-us`, three collectives of log2(P) rounds each over a network. The
model leaves out how unevenly a single window's events fall across partitions (a whole run's
shares hide it), so it is an upper bound; bench/parallel_bench measures that loss on a
synthetic model.
"""
import argparse
import math
import re
import sys


def runs(text):
    """Yields (k, wall_s, events, windows, {P: (imbalance, crossing %)}) per fabric_bench run."""
    current = None
    for line in text.splitlines():
        fields = line.split()
        if fields and fields[0].isdigit() and len(fields) >= 9:
            if current:
                yield current
            current = {"k": int(fields[0]), "wall": float(fields[5]), "events": int(fields[7]), "windows": 0, "parts": {}}
        elif current and line.startswith("# windows with events"):
            current["windows"] = int(re.search(r"events (\d+),", line).group(1))
        elif current and "partitions:" in line:
            m = re.search(r"#\s*(\d+) partitions: the largest holds ([\d.]+) x .*; ([\d.]+)% of hops cross", line)
            current["parts"][int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    if current:
        yield current


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", help="fabric_bench --window output (default: stdin)")
    ap.add_argument("--sync-us", type=float, default=1.0, help="one window's synchronization between two threads (us)")
    ap.add_argument("--mpi-round-us", type=float, default=0.0,
                    help="one message round between ranks over the network (us); 0: threads only")
    a = ap.parse_args()
    text = open(a.file).read() if a.file else sys.stdin.read()
    print(f"{'k':>3} {'T1_s':>8} {'windows':>8} {'ev/win':>7} {'P':>3} {'imbal':>6} {'cross%':>6} {'threads':>8}"
          + (f" {'mpi':>6}" if a.mpi_round_us > 0 else ""))
    for r in runs(text):
        if not r["windows"]:
            sys.exit(f"scaling_model: the k={r['k']} run has no window counts (fabric_bench --window 50ns)")
        t1, w = r["wall"], r["windows"]
        for p, (imbalance, cross) in sorted(r["parts"].items()):
            rounds = math.log2(p)
            compute = t1 * imbalance / p
            threads = t1 / (compute + w * a.sync_us * 1e-6 * rounds)
            line = f"{r['k']:>3} {t1:>8.1f} {w:>8} {r['events'] / w:>7.0f} {p:>3} {imbalance:>6.3f} {cross:>6.1f} {threads:>8.1f}"
            if a.mpi_round_us > 0:
                line += f" {t1 / (compute + w * 3 * rounds * a.mpi_round_us * 1e-6):>6.1f}"
            print(line)


if __name__ == "__main__":
    main()
