#!/usr/bin/env python3
"""The layering check at link level: no layer's library refers to a symbol that only a higher
layer defines. check_layers.py checks the includes; a lower layer can still call up through a
public header (a registry lookup, a writer), which only the linker sees. Each layer is its own
static library (CMakeLists.txt, rdmasim_layer); this reads their symbol tables with nm.
Usage: check_link_layers.py BUILD_DIR   (exit 0: clean, 1: upward references, 2: libraries missing)
       check_link_layers.py --self-test"""
import os
import subprocess
import sys

# Lowest first, as in CMakeLists.txt and check_layers.py.
LAYERS = ["core", "components", "net", "path", "host", "model", "transport", "verbs", "observe", "workload",
          "config", "calibrate", "io"]


def symbols(lib):
    """(defined, undefined) global symbol names of a static library."""
    out = subprocess.run(["nm", "-g", "-C", lib], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] != "U":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif line.strip().startswith("U "):
            undefined.add(line.strip()[2:])
    return defined, undefined


def violations(tables):
    """tables: [(layer, defined, undefined)] lowest first. Returns (lower, upper, symbol) for each
    symbol a layer needs that neither it nor a lower layer defines but a higher one does."""
    found = []
    below = set()
    for i, (name, defined, undefined) in enumerate(tables):
        below |= defined
        for sym in sorted(undefined - below):
            for upper, up_defined, _ in tables[i + 1:]:
                if sym in up_defined:
                    found.append((name, upper, sym))
                    break
    return found


def self_test():
    tables = [("core", {"a"}, set()), ("net", {"b"}, {"a", "c"}), ("io", {"c"}, {"b", "printf"})]
    assert violations(tables) == [("net", "io", "c")], violations(tables)
    assert violations(tables[:2]) == []
    print("self-test ok: an upward reference is found, a downward or external one is not")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tables = []
    for name in LAYERS:
        lib = os.path.join(argv[1], f"librdmasim_{name}.a")
        if not os.path.exists(lib):
            print(f"check_link_layers: {lib} is missing (build the library first)", file=sys.stderr)
            return 2
        tables.append((name, *symbols(lib)))
    found = violations(tables)
    for lower, upper, sym in found:
        print(f"upward reference: {lower} needs {sym}, defined only in {upper}")
    print(f"{len(LAYERS)} layer libraries, {len(found)} upward references")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
