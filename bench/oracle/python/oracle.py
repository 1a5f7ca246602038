"""Python call-graph oracle: every call in a repository resolved with jedi,
written as static and dispatch edges between repository definitions.

usage: python3 oracle.py REPO OUT.jsonl

Besides OUT.jsonl it writes OUT.stats.json (counts, timings, why sites went
unresolved), OUT.files.txt (the source files it read) and OUT.unresolved.jsonl
(the call sites it could not resolve to a repository definition and that are
not known to call outside it).
"""

import argparse
import ast
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from calls import call_sites  # noqa: E402
from defs import Index  # noqa: E402
from files import import_roots, source_files  # noqa: E402
from resolve import Resolver  # noqa: E402

LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Debian's site directory: jedi reads pytest from it to type pytest fixtures.
EXTRA_SITE = "/usr/lib/python3/dist-packages"


def char_col(line_text, byte_col):
    return len(line_text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))


def node_json(index, key, file):
    if key is None:
        return {"file": file, "line": 0, "name": ""}
    d = index.defs[key]
    return {"file": d.file, "line": d.line, "name": d.name}


def base_positions(cls_node):
    out = []
    for b in cls_node.bases:
        while isinstance(b, ast.Subscript):
            b = b.value
        if isinstance(b, ast.Name):
            out.append((b.lineno, b.col_offset))
        elif isinstance(b, ast.Attribute):
            out.append((b.end_lineno, b.end_col_offset - len(b.attr.encode("utf-8"))))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("out")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files (for timing)")
    args = ap.parse_args()
    sys.setrecursionlimit(20000)
    t0 = time.time()
    root = os.path.realpath(args.repo)
    files = source_files(root)
    if args.limit:
        files = files[: args.limit]
    stats = {"files": len(files), "syntax_errors": [], "sites": 0, "status": {}, "shapes": {}}

    index, parsed = Index(), {}
    for rel in files:
        with open(os.path.join(root, rel), "rb") as fh:
            raw = fh.read()
        try:
            source = raw.decode("utf-8")
            tree = ast.parse(source, filename=rel)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            stats["syntax_errors"].append(rel)
            continue
        parsed[rel] = (source, tree, LINE_BREAK.split(source))
        index.add_file(rel, tree)

    sys_path = import_roots(root, files) + [p for p in sys.path[1:] if p and os.path.realpath(p) != HERE]
    if os.path.isdir(os.path.join(EXTRA_SITE, "_pytest")):
        sys_path.append(EXTRA_SITE)
    resolver = Resolver(root, index, sys_path)

    # Class hierarchy.
    scripts = {}
    for rel, (source, tree, lines) in parsed.items():
        classes = [d for d in index.defs.values() if d.file == rel and d.kind == "class" and d.node.bases]
        if not classes:
            continue
        script = resolver.script(rel, source)
        bases = {}
        for d in classes:
            pos = [(ln, char_col(lines[ln - 1], c)) for ln, c in base_positions(d.node)]
            bases[d.key] = resolver.class_bases(script, pos)
        scripts[rel] = bases
    index.link(lambda d: scripts.get(d.file, {}).get(d.key, []))
    stats["classes"] = sum(1 for d in index.defs.values() if d.kind == "class")
    stats["class_bases_in_repo"] = sum(len(v) for v in index.bases.values())
    t_hier = time.time()

    static, dispatch, unresolved = set(), set(), []
    for rel, (source, tree, lines) in parsed.items():
        script = resolver.script(rel, source)
        for site in call_sites(tree, index):
            stats["sites"] += 1
            stats["shapes"][site.shape] = stats["shapes"].get(site.shape, 0) + 1
            caller = node_json(index, site.caller, rel)
            site_json = {"file": rel, "line": site.line}
            if site.target is None:
                status = "complex-callee"
                targets = []
            else:
                ln, bc = site.target
                text = lines[ln - 1]
                col = char_col(text, bc)
                func = site.node.func
                ident = func.id if isinstance(func, ast.Name) else func.attr
                if text[col:col + len(ident)] != ident:
                    targets, status = [], "position-mismatch"
                else:
                    targets, status = resolver.resolve(script, ln, col)
            if not targets:
                stats["status"][status] = stats["status"].get(status, 0) + 1
                if status in ("unresolved", "complex-callee", "position-mismatch", "not-a-node"):
                    unresolved.append({"caller": caller, "site": site_json, "status": status,
                                       "callee": ast.get_source_segment(source, site.node.func) or ""})
                continue
            stats["status"]["resolved"] = stats["status"].get("resolved", 0) + 1
            if len(targets) > 1:
                stats["sites_with_several_targets"] = stats.get("sites_with_several_targets", 0) + 1
            for key, how in targets:
                callee = node_json(index, key, rel)
                static.add(json.dumps({"caller": caller, "callee": callee, "kind": "static", "site": site_json},
                                      separators=(",", ":")))
                d = index.defs[key]
                if how == "ctor" or d.owner is None or d.has("staticmethod") or d.name == "__init__":
                    continue
                if d.name.startswith("__") and not d.name.endswith("__"):
                    continue  # name-mangled: no subclass can override it
                if site.shape == "super-attr":
                    continue
                # What each subclass runs for the name: its own method or the
                # one its MRO finds first (a mixin may come before d.owner).
                subclasses = index.all_subclasses(d.owner)
                if not any(index.find_method(sub, d.name) != key for sub in subclasses):
                    continue
                func = site.node.func
                v = func.value if isinstance(func, ast.Attribute) else None
                called = isinstance(v, ast.Call) and isinstance(v.func, (ast.Name, ast.Attribute))
                if called:
                    v = v.func
                if isinstance(v, (ast.Name, ast.Attribute)):
                    vl, vc = (v.lineno, v.col_offset) if isinstance(v, ast.Name) else \
                        (v.end_lineno, v.end_col_offset - len(v.attr.encode("utf-8")))
                    vc = char_col(lines[vl - 1], vc)
                    if not called and resolver.names_class(script, vl, vc):
                        continue  # Class.method(...): bound to that class, not virtual
                    # The receiver's classes R narrow the candidates to R and
                    # its subclasses when each R is d.owner or a subclass of it.
                    receivers = resolver.receiver_classes(script, vl, vc, called)
                    within = set(subclasses) | {d.owner}
                    if receivers and all(r in within for r in receivers):
                        narrowed = []
                        for r in receivers:
                            narrowed += [r] + index.all_subclasses(r)
                        narrowed = [c for c in dict.fromkeys(narrowed) if c != d.owner]
                        stats["dispatch_subclasses_dropped_by_receiver_type"] = \
                            stats.get("dispatch_subclasses_dropped_by_receiver_type", 0) + \
                            len([c for c in subclasses if c not in narrowed])
                        subclasses = narrowed
                overriders = []
                for sub in subclasses:
                    m = index.find_method(sub, d.name)
                    if m is not None and m != key and not index.defs[m].is_property and m not in overriders:
                        overriders.append(m)
                for m in overriders:
                    dispatch.add(json.dumps({"caller": caller, "callee": node_json(index, m, rel),
                                             "kind": "dispatch", "site": site_json}, separators=(",", ":")))
    t_end = time.time()

    dispatch -= {s.replace('"kind":"static"', '"kind":"dispatch"') for s in static}
    with open(args.out, "w") as fh:
        for line in sorted(static | dispatch):
            fh.write(line + "\n")
    with open(args.out + ".files.txt", "w") as fh:
        fh.write("".join(rel + "\n" for rel in files))
    with open(args.out + ".unresolved.jsonl", "w") as fh:
        for u in sorted(unresolved, key=lambda u: json.dumps(u, sort_keys=True)):
            fh.write(json.dumps(u, separators=(",", ":")) + "\n")
    callers = {json.dumps(json.loads(s)["caller"], sort_keys=True) for s in static | dispatch}
    stats.update({
        "static_edges": len(static), "dispatch_edges": len(dispatch), "callers": len(callers),
        "definitions": len(index.defs),
        "external_callee_modules": dict(sorted(resolver.external_modules.items(), key=lambda kv: -kv[1])),
        "seconds_index_and_hierarchy": round(t_hier - t0, 1), "seconds_total": round(t_end - t0, 1),
    })
    with open(args.out + ".stats.json", "w") as fh:
        json.dump(stats, fh, indent=1, sort_keys=True)
    print(json.dumps({k: stats[k] for k in ("files", "sites", "static_edges", "dispatch_edges", "callers",
                                            "seconds_total")}), file=sys.stderr)
    print(json.dumps(stats["status"]), file=sys.stderr)


if __name__ == "__main__":
    main()
