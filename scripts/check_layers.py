#!/usr/bin/env python3
"""The layering check: every #include "..." in src/, apps/ and include/ must point to the same
layer or one below it. Layers, lowest first (the README's "Layers"; one CMake target each):

  api        include/rdmasim      the public API: includes nothing but itself
  core       src/core             scheduler, units, registry
  components src/cc, src/lb, src/buffer, src/queue
                                  congestion controls, load balancers, buffer policies and queue
                                  schedulers: public interfaces only
  net        src/net              topology, ECMP, routing tables, wire formats, packets
  path       src/path             the path IR (PathSpec, StageSpec, Cost) and the network's stages
  host       src/host             CPU, memory, PCIe, GPU, NIC stages
  build      src/model            the paths' builders, profiles, closed forms
  transport  src/sim              fabric, stages, RC/TCP
  verbs      src/verbs            the simulated verbs API on the transport
  observe    src/observe          observers of a run: the wire capture and its pcapng writer
  workload   src/workload
  config     src/config           options, scenario and host-profile files, the runs of compare and sweep
  calibrate  src/calibrate        probes of the real host and the host-profile fit
  io         src/io               reports and writers
  server     src/web              `rdmasim serve`
  app        apps/                the command line

The api layer may be included from anywhere. An include that goes up is a violation, unless it
is listed, with its file, in scripts/layers_allowed.txt: today's known upward edges, each to be
removed by moving code, never added to. The check fails on a violation not in the list, and on a
listed one that no longer occurs (so the list only shrinks).
Usage: check_layers.py [ROOT] [ALLOWED_LIST]   (exit 0: clean, 1: violations)"""
import os
import re
import sys

LAYERS = [
    ("api", ["include/rdmasim"]),
    ("core", ["src/core"]),
    ("components", ["src/cc", "src/lb", "src/buffer", "src/queue"]),
    ("net", ["src/net"]),
    ("path", ["src/path"]),
    ("host", ["src/host"]),
    ("build", ["src/model"]),
    ("transport", ["src/sim"]),
    ("verbs", ["src/verbs"]),
    ("observe", ["src/observe"]),
    ("workload", ["src/workload"]),
    ("config", ["src/config"]),
    ("calibrate", ["src/calibrate"]),
    ("io", ["src/io"]),
    ("server", ["src/web"]),
    ("app", ["apps"]),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    for name, dirs in LAYERS:
        for d in dirs:
            if path == d or path.startswith(d + "/"):
                return name
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    allowed_file = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "scripts", "layers_allowed.txt")
    files = []
    for top in ("src", "apps", "include"):
        for d, _, fs in os.walk(os.path.join(root, top)):
            for f in fs:
                if f.endswith((".hpp", ".h", ".cpp", ".cc")):
                    files.append(os.path.relpath(os.path.join(d, f), root))
    known = set(files)
    found = set()
    for p in sorted(files):
        here = layer_of(p)
        if here is None:
            found.add(f"{p}: (in no layer: add its directory to LAYERS)")
            continue
        with open(os.path.join(root, p), errors="replace") as fh:
            for line in fh:
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                # Resolution as the build does it: the file's own directory, then include/ and src/,
                # then apps/rdmasim (the command line's headers, on some targets' paths).
                target = None
                for base in (os.path.dirname(p), "include", "src", "apps/rdmasim"):
                    c = os.path.normpath(os.path.join(base, inc))
                    if c in known:
                        target = c
                        break
                if target is None:
                    continue  # a system or generated header
                there = layer_of(target)
                if there is None or there == "api":
                    if here == "api" and there != "api":
                        found.add(f"{p}: {inc}")
                    continue
                if RANK[there] > RANK[here] or here == "api":
                    found.add(f"{p}: {inc}")
    allowed = set()
    if os.path.exists(allowed_file):
        with open(allowed_file) as fh:
            allowed = {l.strip() for l in fh if l.strip() and not l.startswith("#")}
    new = sorted(found - allowed)
    gone = sorted(allowed - found)
    for v in new:
        if "(in no layer" in v:
            print(f"unplaced file: {v}")
        else:
            print(f"upward include: {v} ({layer_of(v.split(':')[0])} may not include a higher layer)")
    for v in gone:
        print(f"no longer occurs, remove it from {os.path.relpath(allowed_file, root)}: {v}")
    print(f"{len(files)} files, {len(found)} upward includes ({len(found & allowed)} known), "
          f"{len(new)} new, {len(gone)} stale")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
