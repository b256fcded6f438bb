#!/usr/bin/env python3
"""The JSON documents' key table (src/io/json_schema.cpp, `rdmasim list --json-documents`) against
what the program writes: every example of every document is run; its first key must be
schema_version, every always-key must be there, no key may be missing from the table, and every
key of the table must appear in some example. Usage: json_schema_test.py RDMASIM SOURCE_DIR"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

rdmasim, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
docs = json.loads(subprocess.run([rdmasim, "list", "--json-documents"], check=True, capture_output=True).stdout)
failures = 0
for doc in docs:
    documented = [k["key"] for k in doc["keys"]]
    always = [k["key"] for k in doc["keys"] if k["always"]]
    seen = set()
    for example in doc["examples"]:
        with tempfile.TemporaryDirectory() as work:
            os.symlink(os.path.join(source, "scenarios"), os.path.join(work, "scenarios"))
            proc = subprocess.run([rdmasim] + shlex.split(example), cwd=work, capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"FAIL: {doc['document']}: `rdmasim {example}` exited {proc.returncode}: {proc.stderr.strip()}")
                failures += 1
                continue
            text = open(os.path.join(work, doc["output"])).read() if doc["output"] else proc.stdout
        keys = list(json.loads(text).keys())
        seen.update(keys)
        problems = []
        if not keys or keys[0] != "schema_version":
            problems.append("its first key is not schema_version")
        problems += [f"always-key {k} missing" for k in always if k not in keys]
        problems += [f"key {k} not in the table" for k in keys if k not in documented]
        if problems:
            print(f"FAIL: {doc['document']}: `rdmasim {example}`: " + "; ".join(problems))
            failures += 1
        else:
            print(f"ok: {doc['document']}: `rdmasim {example}`")
    for k in documented:
        if k not in seen:
            print(f"FAIL: {doc['document']}: key {k} is in the table but no example writes it")
            failures += 1
print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
