"""Edits the clones watch.sh set up and times each edit to its committed graph.

Usage: watch_edits.py <work> <file> <n> <debounce> <name> <copy>...

Each copy is <work>/<copy>/repo, watched by a gitnexus whose reports go to
<work>/<copy>/watch.json. Edits alternate between the copies (and which goes
first), so that several builds are measured side by side.
"""
import json
import statistics
import sys
import time

work, file, n, debounce, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
copies = sys.argv[6:]


def generation(copy):
    try:
        with open(f"{work}/{copy}/repo/.gitnexus/meta.json") as f:
            return json.load(f)["generation"]
    except (OSError, ValueError, KeyError):
        return None


def snippet(i):
    if file.endswith(".go"):
        return f"\nfunc gnxWatchEdit{i}() int {{ return {i} }}\n"
    if file.endswith(".py"):
        return f"\n\ndef gnx_watch_edit_{i}():\n    return {i}\n"
    return f"\nexport function gnxWatchEdit{i}() {{ return {i}; }}\n"


def reports(copy):
    with open(f"{work}/{copy}/watch.json") as f:
        txt = f.read()
    out, i, dec = [], 0, json.JSONDecoder()
    while i < len(txt):
        while i < len(txt) and txt[i].isspace():
            i += 1
        if i >= len(txt):
            break
        try:
            d, i = dec.raw_decode(txt, i)
        except ValueError:  # a report being written
            break
        out.append(d)
    return out


def cell(xs):
    if not xs:
        return "–"
    return f"{statistics.median(xs):.2f} s ({min(xs):.2f}–{max(xs):.2f})"


# Each watcher's first run finds the index fresh: wait for its report.
start = time.monotonic()
while any(not reports(c) for c in copies):
    if time.monotonic() - start > 120:
        sys.exit("a watcher did not start")
    time.sleep(0.05)
time.sleep(0.5)

lat = {c: [] for c in copies}
for i in range(1, n + 1):
    for c in copies if i % 2 else list(reversed(copies)):
        g0 = generation(c)
        t0 = time.monotonic()
        with open(f"{work}/{c}/repo/{file}", "a") as f:
            f.write(snippet(i))
        while generation(c) == g0:
            if time.monotonic() - t0 > 120:
                sys.exit(f"{c}, edit {i}: no new index after 120 s")
            time.sleep(0.005)
        lat[c].append(time.monotonic() - t0)
        time.sleep(1.5)

print(f"{name}: {n} edits appending a function to {file}, --debounce {debounce}.\n")
print("| build | write → committed graph | the watcher's runs (start → committed graph) |")
print("|---|---:|---:|")
for c in copies:
    runs = [d["summary"]["totalMillis"] / 1000 for d in reports(c) if d.get("summary")]
    print(f"| {c} | {cell(lat[c])} | {cell(runs)} |")
if len(copies) == 2:
    print(f"\n{copies[1]} / {copies[0]}: {statistics.median(lat[copies[1]]) / statistics.median(lat[copies[0]]):.2f}×")
