"""What the Kotlin and Scala oracles share: a repository's sources and the
classes its compiler wrote, JVM method resolution over them, the edge
record, and the command line (callgraph.py <repo-dir> <classes-dir>
<files.txt> <out.jsonl>)."""

import collections
import json
import os
import sys

import classfile as cfr


class ClassRepo:
    """The sources (rel path -> lines, and by (package, file name)) and the
    classes of a repository. package_of(lines) is the language's package of
    a source file."""

    def __init__(self, root, classes_dir, files, package_of):
        self.root = root
        self.files = files
        self.source = {}
        self.by_pkg = collections.defaultdict(list)
        for rel in files:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
            self.source[rel] = lines
            self.by_pkg[(package_of(lines), os.path.basename(rel))].append(rel)
        self.classes = {}
        for dirpath, _, names in os.walk(classes_dir):
            for n in names:
                if n.endswith(".class"):
                    with open(os.path.join(dirpath, n), "rb") as f:
                        c = cfr.read(f.read())
                    self.classes[c.name] = c
        self.stats = collections.Counter()
        self.subtypes = collections.defaultdict(set)
        for c in self.classes.values():
            for s in self.supertypes(c.name):
                if s != c.name:
                    self.subtypes[s].add(c.name)

    def supertypes(self, name, seen=None):
        seen = set() if seen is None else seen
        if name in seen or name not in self.classes:
            return seen
        seen.add(name)
        c = self.classes[name]
        for s in [c.super] + c.interfaces:
            self.supertypes(s, seen)
        return seen

    def method(self, cname, name, desc):
        c = self.classes.get(cname)
        if c is None:
            return None
        for m in c.methods:
            if m.name == name and m.desc == desc:
                return m
        return None

    def resolve(self, cname, name, desc):
        """JVM method resolution among repository classes."""
        c = self.classes.get(cname)
        if c is None:
            return None
        m = self.method(cname, name, desc)
        if m:
            return m
        r = self.resolve(c.super, name, desc)
        if r:
            return r
        for i in c.interfaces:
            r = self.resolve(i, name, desc)
            if r:
                return r
        return None

    def real_lines(self, m):
        """The lines of m's code that are lines of its source file."""
        rel = self.file_of(m.cls)
        n = len(self.source[rel]) if rel else 0
        return sorted({ln for _, ln in m.lines if 0 < ln <= n})


class EdgeOracle:
    """Collects edges; the language's oracle supplies callee_endpoint."""

    def add(self, caller, callee_m, kind, line):
        callee = self.callee_endpoint(callee_m)
        if callee["file"] is None or not callee["line"]:
            self.r.stats["callee_without_source_line"] += 1  # e.g. data class members kotlinc writes
            return
        self.edges.add(json.dumps({"caller": caller, "callee": callee, "kind": kind,
                                   "site": {"file": caller["file"], "line": line}}, separators=(",", ":")))
        self.r.stats["edges_" + kind] += 1


def main(repo_class, oracle_class):
    """Reads the arguments, runs the oracle, writes <out.jsonl>,
    <out.jsonl>.files and <out.jsonl>.stats.json."""
    root, classes_dir, files_txt, out = sys.argv[1:5]
    with open(files_txt) as f:
        files = sorted(l.strip() for l in f if l.strip())
    repo = repo_class(root, classes_dir, files)
    oracle = oracle_class(repo)
    oracle.run()
    static = set()
    for e in oracle.edges:
        d = json.loads(e)
        if d["kind"] == "static":
            static.add(json.dumps([d["caller"], d["callee"], d["site"]]))
    with open(out, "w") as f:
        for e in sorted(oracle.edges):
            d = json.loads(e)
            if d["kind"] == "dispatch" and json.dumps([d["caller"], d["callee"], d["site"]]) in static:
                continue  # a receiver's own method is the static edge
            f.write(e + "\n")
    with open(out + ".files", "w") as f:
        f.write("".join(p + "\n" for p in files))
    repo.stats["classes"] = len(repo.classes)
    repo.stats["files"] = len(files)
    with open(out + ".stats.json", "w") as f:
        json.dump(dict(sorted(repo.stats.items())), f, indent=1)
        f.write("\n")
