#!/usr/bin/env python3
"""The test tiers (docs/validation.md, "Tiers"), held to what ctest registered.

usage: check_tiers.py CTEST BUILD_DIR SOURCE_DIR [--table | --absent NAME,...]

(--table prints the table's rows as ctest has them, the longest first, for docs/validation.md;
--absent names the tests this build leaves out, whose rows stand: the sanitizers' build has no
benchmark, a machine without glslangValidator no test_glslang.)

Every registered test carries exactly one tier label (`default` or `full`) and a COST, and
docs/validation.md's tier table lists each one (a row `test_longrun_*` stands for the tests
registered per model) with the same tier and seconds; no row names a test that is not there. The
default tier's costs add up to at most its budget on 2 cores (the table's own line says it): a
new test that would push the README's test command past it goes to the full tier, or another
test moves. These are the declared seconds, not a clock: nothing here times anything. And CI's
budget is one number: `.ci/run`'s budget_minutes is the one docs/validation.md states.
"""
import fnmatch
import json
import os
import re
import subprocess
import sys

TIERS = ("default", "full")
CORES = 2


def registered(ctest, build):
    """{test name: (tiers, cost)} as ctest lists them."""
    out = subprocess.run([ctest, "--show-only=json-v1"], cwd=build, capture_output=True,
                         text=True, check=True).stdout
    tests = {}
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        tiers = [label for label in props.get("LABELS", []) if label in TIERS]
        tests[t["name"]] = (tiers, props.get("COST"))
    return tests


def documented(path):
    """The tier table's rows {name: (tier, seconds, line)} and the budget line's seconds."""
    rows, budget = {}, None
    with open(path) as f:
        lines = f.read().split("\n")
    inside = False
    for n, line in enumerate(lines, 1):
        if line.startswith("## "):
            inside = line.strip() == "## Tiers"
            continue
        if not inside:
            continue
        m = re.match(r"\| `(test_[\w*-]+|bench_\w+)` \| (\w+) \| (\d+) \|", line)
        if m:
            rows[m.group(1)] = (m.group(2), int(m.group(3)), n)
        m = re.search(r"default tier's budget: (\d+) s", line)
        if m:
            budget = int(m.group(1))
    return rows, budget


def table(tests):
    """The tier table's rows, each tier's longest first; the per-model long runs as one row."""
    rows = {}
    for name, (tiers, cost) in tests.items():
        if name.startswith("test_longrun_"):
            name = "test_longrun_*"
        rows[name] = (tiers[0] if len(tiers) == 1 else "?", round(cost or 0))
    for name, (tier, cost) in sorted(rows.items(), key=lambda r: (r[1][0], -r[1][1], r[0])):
        print(f"| `{name}` | {tier} | {cost} |")


def main():
    ctest, build, src = sys.argv[1:4]
    doc = os.path.join(src, "docs", "validation.md")
    tests = registered(ctest, build)
    if sys.argv[4:] == ["--table"]:
        table(tests)
        return 0
    absent = set(sys.argv[5].split(",")) if sys.argv[4:5] == ["--absent"] else set()
    rows, budget = documented(doc)
    bad = []
    if not rows:
        bad.append(f"{doc}: no tier table under '## Tiers'")
    if budget is None:
        bad.append(f"{doc}: no line stating \"the default tier's budget: N s\" under '## Tiers'")
    seen = set()
    default_sum = 0
    for name, (tiers, cost) in sorted(tests.items()):
        if len(tiers) != 1:
            bad.append(f"{name}: tier labels {tiers or 'none'}: give it one of {TIERS} "
                       "(boids_tier in tests/CMakeLists.txt)")
            continue
        if cost is None:
            bad.append(f"{name}: no COST (boids_tier gives it its seconds)")
            continue
        key = name if name in rows else next((r for r in rows if fnmatch.fnmatchcase(name, r)),
                                             None)
        if key is None:
            bad.append(f"{name}: no row in {doc}'s tier table")
        else:
            seen.add(key)
            row = rows[key]
            if row[0] != tiers[0] or row[1] != round(cost):
                bad.append(f"{doc}:{row[2]}: {key} is {row[0]}, {row[1]} s; ctest has "
                           f"{tiers[0]}, {round(cost)} s")
        if tiers[0] == "default":
            default_sum += cost
    for name in sorted(set(rows) - seen - absent):
        bad.append(f"{doc}:{rows[name][2]}: {name} is no registered test")
    wall = default_sum / CORES
    if budget is not None and wall > budget:
        bad.append(f"the default tier's costs add up to {default_sum:.0f} s, {wall:.0f} s on "
                   f"{CORES} cores: past its budget of {budget} s (move a test to the full tier)")
    ci = re.search(r"^budget_minutes=(\d+)$", open(os.path.join(src, ".ci", "run")).read(), re.M)
    stated = re.search(r"CI's\s+budget:\s+(\d+)\s+minutes", open(doc).read())
    if not ci or not stated or ci.group(1) != stated.group(1):
        bad.append(f"CI's budget: .ci/run says {ci and ci.group(1)} minutes (budget_minutes=), "
                   f"{doc} {stated and stated.group(1)} (\"CI's budget: N minutes\")")
    for b in bad:
        print("FAIL", b)
    counts = {t: sum(1 for v in tests.values() if v[0] == [t]) for t in TIERS}
    print(f"{len(tests)} tests: {counts['default']} default ({default_sum:.0f} s of test, "
          f"{wall:.0f} s on {CORES} cores; budget {budget} s), {counts['full']} full")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
