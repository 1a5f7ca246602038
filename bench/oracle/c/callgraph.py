"""Reference call graph of a C repository, from clang's own parse.

    callgraph.py <repo-dir> <out.jsonl>

Each .c file of the repository is a translation unit, parsed by libclang
with every repository directory that holds a header on the include path
(and the -I flags of a compile_commands.json at the root, when there is
one). A call expression whose callee is a function declaration is an edge
from the function definition around it to the callee's definition: the
definition clang sees in the translation unit (a static function, an
inline function of a header), else the one external definition of that
name among all translation units. A name defined externally by several
translation units (two programs of the repository) is a call the linker
decides: the site is written to OUT.unresolved.jsonl, as are calls through
pointers. Vendored directories (vendor, node_modules, third_party) are
left out, as the index leaves them out. Calls spelled inside a macro's body are the macro's, not the
source's, and are left out; calls written in a macro's arguments count.
"""
import ctypes
import re
import json
import os
import shlex
import sys

import clang.cindex as ci

ci.Config.set_library_file("/usr/lib/llvm-14/lib/libclang-14.so.1")
K = ci.CursorKind


def written_offset(loc):
    fn = ci.conf.lib.clang_getSpellingLocation
    fn.argtypes = [ci.SourceLocation, ctypes.POINTER(ci.c_object_p), ctypes.POINTER(ctypes.c_uint),
                   ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
    f, line, col, off = ci.c_object_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    fn(loc, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col), ctypes.byref(off))
    return off.value


def written_in_source(call, name, texts):
    """Whether the callee's name is written in the source text the call
    expression spans: false for a call that a macro's body makes."""
    start, end = call.extent.start, call.extent.end
    if start.file is None:
        return False
    path = start.file.name
    if path not in texts:
        with open(path, "rb") as f:
            texts[path] = f.read()
    # Offsets where the call's first and last tokens are written: inside
    # the invocation for a call written in a macro's arguments.
    text = texts[path][written_offset(start):max(written_offset(end), written_offset(start))]
    return re.search(rb"\b" + re.escape(name.encode()) + rb"\b", text) is not None


def main():
    repo, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    sources, header_dirs = [], set()
    for root, dirs, files in os.walk(repo):
        # Vendored trees are not indexed: the index skips them too.
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("vendor", "node_modules", "third_party"))
        for name in sorted(files):
            if name.endswith(".c"):
                sources.append(os.path.join(root, name))
            elif name.endswith(".h"):
                header_dirs.add(root)
    args = ["-fsyntax-only", "-w"] + ["-I" + d for d in sorted(header_dirs)]
    ccdb = os.path.join(repo, "compile_commands.json")
    if os.path.exists(ccdb):
        for c in json.load(open(ccdb)):
            words = c.get("arguments") or shlex.split(c.get("command", ""))
            args += [w for w in words if w.startswith("-I") or w.startswith("-D")]

    def rel(path):
        p = os.path.abspath(path)
        return os.path.relpath(p, repo) if p.startswith(repo + os.sep) else None

    index = ci.Index.create()
    definitions = {}  # name -> set of (file, line) of external definitions
    calls = []  # (caller, site, ref usr/name, in-TU definition or None, static?)
    unresolved = []
    files_read = set()
    texts = {}
    for src in sources:
        tu = index.parse(src, args=args)
        for inc in tu.get_includes():
            if rel(inc.include.name):
                files_read.add(rel(inc.include.name))
        files_read.add(rel(src))

        def walk(cur, caller):
            for ch in cur.get_children():
                loc = ch.location
                if loc.file is None or rel(loc.file.name) is None:
                    continue
                if ch.kind == K.FUNCTION_DECL and ch.is_definition():
                    me = {"file": rel(loc.file.name), "line": loc.line, "name": ch.spelling}
                    if ch.linkage == ci.LinkageKind.EXTERNAL:
                        definitions.setdefault(ch.spelling, set()).add((me["file"], me["line"]))
                    walk(ch, me)
                    continue
                if ch.kind == K.CALL_EXPR and caller is not None:
                    efile = ch.extent.start.file
                    site = {"file": rel(efile.name) if efile else caller["file"], "line": ch.extent.start.line}
                    ref = ch.referenced
                    if ref is not None and ref.kind == K.FUNCTION_DECL:
                        if written_in_source(ch, ref.spelling, texts):
                            d = ref.get_definition()
                            target = None
                            if d is not None and d.location.file is not None and rel(d.location.file.name):
                                target = {"file": rel(d.location.file.name), "line": d.location.line, "name": d.spelling}
                            calls.append((caller, site, ref.spelling, target, ref.linkage == ci.LinkageKind.EXTERNAL))
                    else:
                        unresolved.append({"site": site, "status": "indirect"})
                walk(ch, caller)

        walk(tu.cursor, None)

    edges, seen = [], set()
    for caller, site, name, target, external in calls:
        if target is None and external:
            defs = definitions.get(name, set())
            if len(defs) == 1:
                f, line = next(iter(defs))
                target = {"file": f, "line": line, "name": name}
            elif len(defs) > 1:
                unresolved.append({"site": site, "status": "unresolved"})
        if target is None:
            continue
        e = {"caller": caller, "callee": target, "kind": "static", "site": site}
        k = json.dumps(e, sort_keys=True)
        if k not in seen:
            seen.add(k)
            edges.append(k)
    with open(out, "w") as w:
        for k in sorted(edges):
            w.write(k + "\n")
    with open(out + ".files.txt", "w") as w:
        for f in sorted(x for x in files_read if x):
            w.write(f + "\n")
    with open(out + ".unresolved.jsonl", "w") as w:
        for u in sorted({json.dumps(u, sort_keys=True) for u in unresolved}):
            w.write(u + "\n")
    with open(out + ".stats.json", "w") as w:
        json.dump({"translationUnits": len(sources), "edges": len(edges), "unresolvedSites": len(unresolved)}, w)


if __name__ == "__main__":
    main()
