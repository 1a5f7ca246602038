#!/usr/bin/env python3
"""tabulate.py: turns the raw rows written by compare.sh into markdown tables.

Usage: tabulate.py rows.tsv

Per corpus and tool, timings and memory are the median over the successful runs; counts come from
the first successful run. A tool with no successful run shows the exit code of its first failure.
"""
import csv
import statistics
import sys


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def load(path):
    """Rows grouped by corpus (in first-seen order), then by tool."""
    corpora = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            corpora.setdefault(row["corpus"], {}).setdefault(row["tool"], []).append(row)
    return corpora


def summarize(rows):
    """Median timings of the successful runs, or the failure of the first run."""
    good = [r for r in rows if r["rc"] == "0"]
    if not good:
        first = rows[0]
        return {"failed": first["rc"], "wall": number(first["wall_s"]),
                "rss": number(first["peak_rss_kib"])}

    def median(key):
        return statistics.median(number(r[key]) for r in good)

    return {
        "failed": None,
        "runs": len(good),
        "wall": median("wall_s"),
        "cpu": statistics.median(number(r["user_s"]) + number(r["sys_s"]) for r in good),
        "rss": median("peak_rss_kib"),
        "tree": median("tree_peak_kib"),
        "files": good[0]["files"],
        "nodes": good[0]["nodes"],
        "edges": good[0]["edges"],
        "calls": good[0]["calls"],
        "derived_nodes": good[0]["derived_nodes"],
        "derived_edges": good[0]["derived_edges"],
    }


def mib(kib):
    return f"{kib / 1024:.0f}"


def count(text):
    value = number(text)
    return f"{value:,.0f}" if value is not None else text


def tool_cells(s):
    if s is None:
        return ["-"] * 4
    if s["failed"] is not None:
        return [f"failed (exit {s['failed']}) after {s['wall']:.0f} s", mib(s["rss"]), "-", "-"]
    return [f"{s['wall']:.1f}", mib(s["rss"]), count(s["nodes"]), count(s["edges"])]


def ratio(a, b, fmt):
    if a is None or b is None or a["failed"] is not None or b["failed"] is not None:
        return "-"
    return fmt(a, b)


def main():
    corpora = load(sys.argv[1])
    print("| corpus | files (ours / peer) | ours wall s | ours peak MiB | ours nodes | ours edges "
          "| peer wall s | peer peak MiB | peer nodes | peer edges | speed (peer/ours wall) "
          "| memory (ours/peer peak) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    summaries = []
    for corpus, tools in corpora.items():
        ours = summarize(tools["ours"]) if "ours" in tools else None
        peer = summarize(tools["peer"]) if "peer" in tools else None
        summaries.append((corpus, ours, peer))
        files = " / ".join(count(s["files"]) if s and s["failed"] is None else "-" for s in (ours, peer))
        speed = ratio(ours, peer, lambda o, p: f"{p['wall'] / o['wall']:.1f}x")
        memory = ratio(ours, peer, lambda o, p: f"{o['rss'] / p['rss']:.2f}")
        print("| " + " | ".join([corpus, files, *tool_cells(ours), *tool_cells(peer), speed, memory]) + " |")

    print()
    print("| corpus | ours CPU s | peer CPU s | ours tree peak MiB | peer tree peak MiB "
          "| memory (ours/peer tree peak) | ours CALLS | peer CALLS | peer Community+Process nodes "
          "| peer MEMBER_OF+STEP_IN_PROCESS edges |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for corpus, ours, peer in summaries:
        cells = [corpus]
        for s in (ours, peer):
            cells.append(f"{s['cpu']:.1f}" if s and s["failed"] is None else "-")
        for s in (ours, peer):
            cells.append(mib(s["tree"]) if s and s["failed"] is None else "-")
        cells.append(ratio(ours, peer, lambda o, p: f"{o['tree'] / p['tree']:.2f}"))
        for s in (ours, peer):
            cells.append(count(s["calls"]) if s and s["failed"] is None else "-")
        for key in ("derived_nodes", "derived_edges"):
            cells.append(count(peer[key]) if peer and peer["failed"] is None else "-")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
