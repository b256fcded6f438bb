# Shared by the CLI test scripts: a temp dir, counters and the three checks. Needs $bin set.
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_error() {  # expect_error "<stderr substring>" args...
  local want=$1
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [[ $rc -eq 2 && $lines -eq 1 && ! -s $tmp/out ]] && grep -qF -- "$want" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: rdmasim $* -> rc=$rc, stderr=$(cat "$tmp/err"), stdout bytes=$(wc -c <"$tmp/out") (wanted '$want')"
  fi
}

expect_ok() {  # expect_ok "<stdout substring>" args...
  local want=$1
  shift
  if "$bin" "$@" >"$tmp/out" 2>"$tmp/err" && grep -qF -- "$want" "$tmp/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: rdmasim $* (wanted '$want' in stdout): $(head -c 300 "$tmp/err")"
  fi
}

check() {  # check "<what>" condition...
  local what=$1
  shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}

expect_failed_run() {  # expect_failed_run "<stdout substring>" "<stderr substring>" args...: exit 3, results printed
  local want=$1 why=$2
  shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq 3 ]] && grep -qF -- "$want" "$tmp/out" && grep -qF -- "rdmasim: experiment failed: $why" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: rdmasim $* -> rc=$rc (wanted 3, '$want' in stdout, '$why' in stderr): $(head -c 300 "$tmp/err")"
  fi
}
