#!/usr/bin/env bash
# examples/embed built against the installed package: `cmake --install` of this build into a
# temporary prefix, a separate CMake project that finds it with find_package(rdmasim), and a run
# of the program, which registers its own congestion control and checks that it took effect.
# Usage: embed_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/rdmasim/rate_control.hpp"
test -f "$tmp/prefix/lib/cmake/rdmasim/rdmasimConfig.cmake" || test -f "$tmp/prefix/lib64/cmake/rdmasim/rdmasimConfig.cmake"
# Only the installed headers: the example's project knows nothing of the source tree.
cmake -S "$src/examples/embed" -B "$tmp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/embed_cc"
