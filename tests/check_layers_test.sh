#!/usr/bin/env bash
# The layering check: passes on the tree; fails on an upward include fed to it (a core header
# including the server), on one from the public API into src/, on a stale allowed entry and on
# a source file in a directory no layer owns.
# Usage: check_layers_test.sh SOURCE_DIR
set -u
src=$1
script=$src/scripts/check_layers.py
source "$(dirname "$0")/cli_lib.sh"  # pass/fail counters, $tmp, check
check "the tree passes" python3 "$script" "$src"

mkdir -p "$tmp/src/core" "$tmp/src/web" "$tmp/src/net" "$tmp/include/rdmasim"
printf '#pragma once\n' >"$tmp/src/web/server.hpp"
printf '#pragma once\n' >"$tmp/src/core/base.hpp"
printf '#pragma once\n#include "core/base.hpp"\n' >"$tmp/src/net/packet.hpp"
: >"$tmp/allowed.txt"
check "a downward-only tree passes" python3 "$script" "$tmp" "$tmp/allowed.txt"
printf '#pragma once\n#include "web/server.hpp"\n' >"$tmp/src/core/bad.hpp"
python3 "$script" "$tmp" "$tmp/allowed.txt" >"$tmp/out"
rc=$?
check "core including the server fails" test $rc -eq 1
check "and names the include" grep -q "upward include: src/core/bad.hpp: web/server.hpp (core may not include a higher layer)" "$tmp/out"
echo "src/core/bad.hpp: web/server.hpp" >"$tmp/allowed.txt"
check "an allowed upward include passes" python3 "$script" "$tmp" "$tmp/allowed.txt"
rm "$tmp/src/core/bad.hpp"
python3 "$script" "$tmp" "$tmp/allowed.txt" >"$tmp/out"
check "a stale allowed entry fails" test $? -eq 1
check "and says to remove it" grep -q "no longer occurs" "$tmp/out"
: >"$tmp/allowed.txt"
printf '#pragma once\n#include "net/packet.hpp"\n' >"$tmp/include/rdmasim/api.hpp"
python3 "$script" "$tmp" "$tmp/allowed.txt" >"$tmp/out"
check "the public API including src/ fails" test $? -eq 1
rm "$tmp/include/rdmasim/api.hpp"
mkdir -p "$tmp/src/newdir"
printf '#pragma once\n' >"$tmp/src/newdir/thing.hpp"
python3 "$script" "$tmp" "$tmp/allowed.txt" >"$tmp/out"
check "a source file in no layer fails" test $? -eq 1
check "and is named" grep -q "unplaced file: src/newdir/thing.hpp" "$tmp/out"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
