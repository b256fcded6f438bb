#!/usr/bin/env bash
# `rdmasim validate`: every published point without a gap is within its tolerance and every
# gap still misses (exit 0); docs/validation.md is this run's report; a point that fails, a gap
# that is met and a malformed list are each reported. Usage: validation_test.sh RDMASIM SOURCE_DIR
set -u
bin=$1
src=$2
source "$(dirname "$0")/cli_lib.sh"  # pass/fail counters, $tmp, check
cd "$src" || exit 1
check "every point passes or misses by its stated gap" "$bin" validate validation/points.toml -j 2 -o "$tmp/v.md"
check "docs/validation.md is up to date (make validate)" diff -u docs/validation.md "$tmp/v.md"

# A point the model misses without a stated gap fails the check (exit 3), and so does a gap
# that is met.
cat >"$tmp/p.toml" <<'TOML'
[[point]]
id = "too-fast"
what = "a made-up 64 KB WRITE at 50 Gb/s"
command = "bw"
set = ["workload.size=64KiB"]
metric = "bw_avg_Gbps"
published = 50
source = "a test"
TOML
"$bin" validate "$tmp/p.toml" -j 1 >"$tmp/out"
check "a missed point exits 3" test $? -eq 3
check "and says FAIL" grep -q "too-fast .* FAIL" "$tmp/out"
sed -i 's/published = 50/published = 99.3/; s/source = "a test"/source = "a test"\ngap = "none really"/' "$tmp/p.toml"
"$bin" validate "$tmp/p.toml" -j 1 >"$tmp/out"
check "a met gap exits 3" test $? -eq 3
check "and says so" grep -q "gap met" "$tmp/out"
printf '[[point]]\nid = "x"\nwhat = "w"\ncommand = "bw"\nmetric = "m"\npublished = 1\nsource = "s"\ncolour = "red"\n' >"$tmp/bad.toml"
"$bin" validate "$tmp/bad.toml" 2>"$tmp/err"
check "an unknown field exits 2" test $? -eq 2
check "naming the file, line, point and field" grep -q "bad.toml:1: point \"x\": unknown field \"colour\"" "$tmp/err"
printf '[[point]]\nid = "x"\nwhat = "w"\ncommand = "bw"\nset = ["workload.size=huge"]\nmetric = "m"\npublished = 1\nsource = "s"\n' >"$tmp/bad.toml"
"$bin" validate "$tmp/bad.toml" 2>"$tmp/err"
check "a bad override exits 2, naming the key" grep -q "point \"x\": .*workload.size" "$tmp/err"

# seeds = N: the point's figure is the median of its runs with seeds seed .. seed + N - 1.
noise='"params.host.poll_noise=30ns", "params.host.noise_prob=0.005", "params.host.noise_max=4us"'
printf '[[point]]\nid = "tail"\nwhat = "w"\ncommand = "lat"\nset = ["workload.size=2", %s]\nmetric = "t_max_us"\npublished = 2\ntolerance = 0.9\nseeds = 3\nsource = "s"\n' "$noise" >"$tmp/seeds.toml"
"$bin" validate "$tmp/seeds.toml" -j 2 >"$tmp/out"
got=$(awk '$1 == "tail" { print $4 }' "$tmp/out")
want=$(for s in 1 2 3; do "$bin" lat -s 2 --set host.poll_noise=30ns --set host.noise_prob=0.005 --set host.noise_max=4us --seed $s |
  awk '$1 == 2 && $2 == 1000 { print $4 }'; done | sort -g | sed -n 2p)
check "seeds = 3 reports the median of seeds 1, 2 and 3 ($got, $want)" test -n "$got" -a "$got" = "$want"
check "and says so in its table" grep -q "^tail .* (median of 3 seeds)$" "$tmp/out"
check "and in the report" grep -q "median of 3 seeds" <("$bin" validate "$tmp/seeds.toml" -o /dev/stdout)
sed -i 's/seeds = 3/seeds = 0/' "$tmp/seeds.toml"
"$bin" validate "$tmp/seeds.toml" 2>"$tmp/err"
check "seeds = 0 exits 2, naming the field" grep -q "point \"tail\": \"seeds\" must be an integer in 1..99" "$tmp/err"
printf '[[point]]\nid = "conn"\nwhat = "w"\ncommand = "cmtime"\nmetric = "m"\npublished = 1\nseeds = 2\nsource = "s"\n' >"$tmp/cm.toml"
"$bin" validate "$tmp/cm.toml" 2>"$tmp/err"
check "seeds for a command without a seed exits 2 ($(head -c 200 "$tmp/err"))" grep -q "point \"conn\": .*seed" "$tmp/err"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
