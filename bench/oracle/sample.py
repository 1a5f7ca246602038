"""Prints random edges of an oracle output with the source lines they name,
for checking them by hand.

usage: python3 sample.py REPO OUT.jsonl KIND N [SEED]
"""

import json
import os
import random
import sys


def line_of(repo, file, line, cache={}):
    if line == 0:
        return "(file level)"
    if file not in cache:
        with open(os.path.join(repo, file), encoding="utf-8", errors="replace") as fh:
            cache[file] = fh.read().split("\n")
    return cache[file][line - 1].strip()[:150]


def main():
    repo, out, kind, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    edges = [json.loads(l) for l in open(out)]
    edges = [e for e in edges if e["kind"] == kind]
    random.Random(seed).shuffle(edges)
    for i, e in enumerate(edges[:n], 1):
        c, d, s = e["caller"], e["callee"], e["site"]
        print(f"#{i} {c['file']}:{c['line']} {c['name'] or '<file>'} -> {d['file']}:{d['line']} {d['name']}  [site {s['line']}]")
        print(f"   caller: {line_of(repo, c['file'], c['line'])}")
        print(f"   site:   {line_of(repo, s['file'], s['line'])}")
        print(f"   callee: {line_of(repo, d['file'], d['line'])}")


if __name__ == "__main__":
    main()
