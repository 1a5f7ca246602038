"""Summarizes oracle outputs: one row per OUT.jsonl given, from the edges
and OUT.stats.json.

usage: python3 summary.py OUT.jsonl...
"""

import json
import sys

UNKNOWN = ("unresolved", "not-a-node", "indirect", "complex-callee", "position-mismatch", "property")


def row(out):
    stats = json.load(open(out + ".stats.json"))
    st = stats["status"]
    calls = stats["sites"] - st.get("module-load", 0)
    unknown = sum(st.get(k, 0) for k in UNKNOWN)
    resolved = st.get("resolved", 0)
    return {
        "output": out.rsplit("/", 1)[-1],
        "files": stats["files"],
        "call sites": calls,
        "resolved": resolved,
        "external": st.get("external", 0),
        "unknown": unknown,
        "unknown/all": f"{unknown / calls:.1%}" if calls else "-",
        "unknown/(resolved+unknown)": f"{unknown / (resolved + unknown):.1%}" if resolved + unknown else "-",
        "static": stats["static_edges"],
        "dispatch": stats["dispatch_edges"],
        "callers": stats["callers"],
        "sites with >1 target": stats.get("sites_with_several_targets", 0),
        "seconds": stats["seconds_total"],
    }


def main():
    rows = [row(o) for o in sys.argv[1:]]
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")


if __name__ == "__main__":
    main()
