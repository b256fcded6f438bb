#!/usr/bin/env python3
"""Executable documentation: runs every command shown with its output in README.md and docs/*.md
and compares what it prints with what the page shows (a cram-style runner).

The format (docs/examples.md says it for writers):
  * A fenced block whose info string is `console` is an example. A line `$ COMMAND` is a command
    (`> MORE` lines continue it); the lines after it, up to the next command, are its standard
    output and standard error together. A command that exits non-zero shows `[N]` as its last line.
  * `...` on a line of its own stands for any number of lines (the part of the output the page
    leaves out). Trailing blanks are not compared.
  * Masking a figure needs a reason: `<!-- example: masked REASON -->` just before the block lets
    its output lines end in ` (glob)`, where `*` is any run of characters and `?` one character.
  * `<!-- example: skip REASON -->` just before the block leaves it unrun (a command that builds,
    installs or serves); the reason is printed.
  * Any other fenced block with a `$ ` line is an error: a command with output must be checked.

Commands run with `rdmasim`, the example programs (examples/, e.g. `write_pingpong`) and the
benchmarks (bench/, e.g. `fabric_bench`) on the PATH, in a scratch directory
per page that holds links to the repository's top-level entries (examples/, scenarios/, ...),
so that files they write land in the scratch directory; a page's blocks run in order.

Usage: doc_examples.py --bin BUILD_DIR --root REPO [--update] PAGE.md...
  --update rewrites the shown output of examples without `...` or globs (then review the diff).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

DIRECTIVE = re.compile(r"^<!--\s*example:\s*(skip|masked)\s+(.+?)\s*-->\s*$")
FENCE = re.compile(r"^(```+)\s*([\w+-]*)")
TIMEOUT_S = 600


class Example:
    def __init__(self, page, line, directive, reason):
        self.page, self.line, self.directive, self.reason = page, line, directive, reason
        self.commands = []  # [command text, its line number, [expected lines], index of the first]


def parse(page, lines):
    """Examples and errors of one page."""
    examples, errors = [], []
    directive = reason = None
    directive_line = 0
    i = 0
    while i < len(lines):
        m = DIRECTIVE.match(lines[i])
        if m:
            directive, reason, directive_line = m.group(1), m.group(2), i + 1
            i += 1
            continue
        fence = FENCE.match(lines[i])
        if not fence:
            if lines[i].strip() and directive:
                errors.append(f"{page}:{directive_line}: an example directive must come just before a ``` block")
                directive = None
            i += 1
            continue
        ticks, info = fence.group(1), fence.group(2)
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].startswith(ticks):
            j += 1
        body = lines[start:j]
        if info == "console":
            ex = Example(page, start, directive, reason)
            for k, text in enumerate(body):
                if text.startswith("$ "):
                    ex.commands.append([text[2:], start + k + 1, [], start + k + 1])
                elif text.startswith("> ") and ex.commands and not ex.commands[-1][2]:
                    ex.commands[-1][0] += "\n" + text[2:]
                    ex.commands[-1][3] += 1
                elif ex.commands:
                    ex.commands[-1][2].append(text)
                else:
                    errors.append(f"{page}:{start + k + 1}: a console block starts with a `$ ` command")
                    break
            if not ex.commands:
                errors.append(f"{page}:{start}: a console block without a command")
            elif directive != "masked" and any(t.endswith(" (glob)") for c in ex.commands for t in c[2]):
                errors.append(f"{page}:{start}: a (glob) line needs <!-- example: masked REASON --> before the block")
            else:
                examples.append(ex)
        else:
            if directive:
                errors.append(f"{page}:{directive_line}: an example directive applies to a ```console block only")
            for k, text in enumerate(body):
                if text.startswith("$ "):
                    errors.append(f"{page}:{start + k + 1}: a command shown with `$ ` must be in a ```console "
                                  "block, where it is run and its output checked")
                    break
        directive = None
        i = j + 1
    if directive:
        errors.append(f"{page}:{directive_line}: an example directive must come just before a ``` block")
    return examples, errors


def glob_regex(pattern):
    out = []
    for ch in pattern:
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
    return re.compile("".join(out) + r"\Z")


def line_matches(expected, actual):
    if expected.endswith(" (glob)"):
        return glob_regex(expected[: -len(" (glob)")].rstrip()).match(actual) is not None
    return expected == actual


def matches(expected, actual):
    """Whether the shown lines match the printed ones (`...` is any number of lines)."""
    memo = {}

    def go(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            result = a == len(actual)
        elif expected[e] == "...":
            result = any(go(e + 1, b) for b in range(a, len(actual) + 1))
        else:
            result = a < len(actual) and line_matches(expected[e], actual[a]) and go(e + 1, a + 1)
        memo[key] = result
        return result

    sys.setrecursionlimit(max(10000, 4 * (len(expected) + len(actual))))
    return go(0, 0)


def scratch_dir(root):
    work = tempfile.mkdtemp(prefix="rdmasim-doc-")
    for entry in os.listdir(root):
        if entry in (".git", "build"):
            continue
        os.symlink(os.path.join(root, entry), os.path.join(work, entry))
    return work


def run(command, work, env):
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
    out = proc.stdout.decode("utf-8", "replace").split("\n")
    if out and out[-1] == "":
        out.pop()
    if proc.returncode != 0:
        out.append(f"[{proc.returncode}]")
    return [line.rstrip() for line in out]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the build directory holding rdmasim")
    ap.add_argument("--root", required=True, help="the repository")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("pages", nargs="+")
    args = ap.parse_args()

    env = dict(os.environ)
    bindir = os.path.abspath(args.bin)
    env["PATH"] = os.pathsep.join([bindir, os.path.join(bindir, "examples"), os.path.join(bindir, "bench"),
                                   env.get("PATH", "")])
    env["LC_ALL"] = "C"
    # mpirun examples: Open MPI refuses root (CI's user) unless told; other users are unaffected.
    env["OMPI_ALLOW_RUN_AS_ROOT"] = env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    env.pop("COLUMNS", None)
    failed = 0
    for page in args.pages:
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        examples, errors = parse(page, lines)
        for e in errors:
            print(e)
        failed += len(errors)
        work = scratch_dir(os.path.abspath(args.root))
        replacements = []  # (first line index, last line index, new lines)
        ran = skipped = 0
        try:
            for ex in examples:
                if ex.directive == "skip":
                    skipped += 1
                    print(f"{page}:{ex.line}: skipped ({ex.reason})")
                    continue
                for command, at, expected, first in ex.commands:
                    ran += 1
                    actual = run(command, work, env)
                    shown = [t.rstrip() for t in expected]
                    if matches(shown, actual):
                        continue
                    if args.update and not any(t == "..." or t.endswith(" (glob)") for t in shown):
                        replacements.append((first, first + len(expected), actual))
                        print(f"{page}:{at}: updated: $ {command}")
                        continue
                    failed += 1
                    print(f"{page}:{at}: output differs: $ {command}")
                    for d in difflib_lines(shown, actual):
                        print("  " + d)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if replacements:
            for first, last, new in sorted(replacements, reverse=True):
                lines[first:last] = new
            with open(page, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
        print(f"{page}: {ran} commands run, {skipped} blocks skipped")
    if failed:
        print(f"{failed} example(s) failed")
    return 1 if failed else 0


def difflib_lines(expected, actual):
    return list(difflib.unified_diff(expected, actual, "shown", "printed", lineterm="", n=2))


if __name__ == "__main__":
    sys.exit(main())
