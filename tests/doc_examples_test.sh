#!/usr/bin/env bash
# The executable-documentation runner (scripts/doc_examples.py) on pages made to pass and to fail.
set -u
bin=$1; root=$2
run() { python3 "$root/scripts/doc_examples.py" --bin "$bin" --root "$root" "$root/tests/doc_examples/$1"; }
fail=0
check() { if [[ $1 == "$2" ]]; then echo "ok: $3"; else echo "FAILED: $3 (got $1, wanted $2)"; fail=1; fi; }

out=$(run good.md); rc=$?
check "$rc" 0 "a page whose examples hold passes"
check "$(grep -c 'skipped (it builds the project)' <<<"$out")" 1 "a skipped block says why"
check "$(grep -o '[0-9]* commands run' <<<"$out")" "4 commands run" "every command of the page runs"

out=$(run bad_figure.md); rc=$?
check "$rc" 1 "a stale figure fails"
check "$(grep -c '^  + total               1.017   100.0%' <<<"$out")" 1 "the failure shows the printed line"
check "$(grep -c 'bad_figure.md:4: output differs' <<<"$out")" 1 "the failure names the page and line"

out=$(run unchecked.md); rc=$?
check "$rc" 1 "a command outside a console block fails"
check "$(grep -c 'unchecked.md:4: a command shown with' <<<"$out")" 1 "it names the line"
check "$(grep -c 'unchecked.md:8: an example directive must come just before' <<<"$out")" 1 "a stray directive fails"

# --update rewrites a stale figure in a copy, and the copy then passes.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$root/tests/doc_examples/bad_figure.md" "$tmp/page.md"
python3 "$root/scripts/doc_examples.py" --bin "$bin" --root "$root" --update "$tmp/page.md" > /dev/null
check "$(grep -c '^ total               1.017   100.0%' "$tmp/page.md")" 1 "--update writes the printed output"
python3 "$root/scripts/doc_examples.py" --bin "$bin" --root "$root" "$tmp/page.md" > /dev/null
check "$?" 0 "the updated page passes"
exit $fail
