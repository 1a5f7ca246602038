"""Reference call graph of a C++ repository, from clang's own parse.

    callgraph.py <repo-dir> <out.jsonl>

Each C++ source file (.cpp .cc .cxx) of the repository is a translation
unit, parsed by libclang as C++17 with every repository directory that
holds a header, and every directory named include, on the include path (and the -I/-D flags of a
compile_commands.json at the root, when there is one). Test directories
with a vendored test framework, and vendored trees, are left out.

A call expression whose callee is a function, method, constructor or
function template is an edge from the definition around it (a function,
method, constructor or destructor definition; lambdas belong to it) to
the callee's definition: the one clang sees in the translation unit, else
the definition with the callee's USR in any translation unit, else, for a
pure virtual method, its declaration (a node of the index). A callee
declared in the repository but defined nowhere in it is written to
OUT.unresolved.jsonl (`not-a-node`), as are calls clang cannot resolve
(dependent calls in templates: `unresolved`).

Left out, as the index does not see them as calls: overloaded operators
(`a + b`), destructors, conversion functions, copy and move constructors,
and constructions that write no arguments (`A a;`, an implicit
conversion); calls spelled inside a macro's body (calls written in a
macro's arguments count). A construction counts when the class name or an
argument list is written (`A(1)`, `new A(1)`, `A a(1)`, `A a{}`,
`Base(x)` in a constructor's initializers); a class without a declared
constructor is the class node itself.

`std::make_unique<T>(args)` and `std::make_shared<T>(args)` call T's
constructor that takes as many arguments (T itself when it declares
none), as the index links them. In the body of a template, a call that
depends on a template parameter is resolved by clang per instantiation
only: its site is written to OUT.unresolved.jsonl (`dependent`).

Dispatch: a call of a virtual method not qualified by a class name
(`Base::f()` is not) also reaches the overrides (same name and parameter
types, defined) in the repository's subclasses of the method's class:
`dispatch` edges.
"""
import ctypes
import json
import os
import re
import shlex
import sys

import clang.cindex as ci

ci.Config.set_library_file("/usr/lib/llvm-14/lib/libclang-14.so.1")
K = ci.CursorKind

FUNCS = {K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE, K.CONVERSION_FUNCTION}
CLASSES = {K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE, K.UNION_DECL, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
SKIP_DIRS = {"vendor", "node_modules", "third_party", "third-party", "external", "extern", "test", "tests"}


def written_offset(loc):
    fn = ci.conf.lib.clang_getSpellingLocation
    fn.argtypes = [ci.SourceLocation, ctypes.POINTER(ci.c_object_p), ctypes.POINTER(ctypes.c_uint),
                   ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
    f, line, col, off = ci.c_object_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    fn(loc, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col), ctypes.byref(off))
    return off.value


def extent_text(cur, texts):
    start, end = cur.extent.start, cur.extent.end
    if start.file is None:
        return b""
    path = start.file.name
    if path not in texts:
        with open(path, "rb") as f:
            texts[path] = f.read()
    a, b = written_offset(start), written_offset(end)
    return texts[path][a:max(a, b)]


def name_written(text, name):
    return re.search(rb"(?<![A-Za-z0-9_])" + re.escape(name.encode()) + rb"(?![A-Za-z0-9_])", text) is not None


def specialized_template(cur):
    """The template a specialization (an instantiated member function
    template) comes from, or None."""
    # The bindings return None for a null cursor (Cursor.from_result).
    return ci.conf.lib.clang_getSpecializedCursorTemplate(cur)


def param_types(cur):
    return tuple(a.type.get_canonical().spelling.replace(" ", "") for a in cur.get_arguments())


def main():
    repo, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    sources, header_dirs = [], set()
    for root, dirs, files in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
        if os.path.basename(root) == "include":
            header_dirs.add(root)
        for name in sorted(files):
            if name.endswith((".cpp", ".cc", ".cxx")):
                sources.append(os.path.join(root, name))
            elif name.endswith((".h", ".hpp", ".hh", ".hxx")):
                header_dirs.add(root)
    args = ["-x", "c++", "-std=c++17", "-fsyntax-only", "-w"] + ["-I" + d for d in sorted(header_dirs)]
    ccdb = os.path.join(repo, "compile_commands.json")
    if os.path.exists(ccdb):
        for c in json.load(open(ccdb)):
            words = c.get("arguments") or shlex.split(c.get("command", ""))
            args += [w for w in words if w.startswith("-I") or w.startswith("-D")]

    def rel(path):
        p = os.path.abspath(path)
        return os.path.relpath(p, repo) if p.startswith(repo + os.sep) else None

    def node(cur):
        loc = cur.location
        if loc.file is None or rel(loc.file.name) is None:
            return None
        return {"file": rel(loc.file.name), "line": loc.line, "name": cur.spelling}

    index = ci.Index.create()
    defs = {}        # USR -> nodes of the definitions (one per file: programs may reuse a name)
    pure = {}        # USR -> node of a pure virtual declaration
    owner = {}       # method USR -> class USR
    sig = {}         # method USR -> (name, parameter types)
    methods = {}     # class USR -> set of method USRs
    subclasses = {}  # class USR -> set of class USRs
    calls = []       # (caller, site, callee cursor data)
    unresolved = []
    files_read = set()
    texts = {}

    for src in sources:
        tu = index.parse(src, args=args)
        for inc in tu.get_includes():
            if rel(inc.include.name):
                files_read.add(rel(inc.include.name))
        files_read.add(rel(src))

        def walk(cur, caller, parent, templated_in=False):
            for ch in cur.get_children():
                loc = ch.location
                if loc.file is None or rel(loc.file.name) is None:
                    continue
                kind = ch.kind
                if kind in CLASSES and ch.is_definition():
                    cu = ch.get_usr()
                    for b in ch.get_children():
                        if b.kind == K.CXX_BASE_SPECIFIER:
                            decl = b.type.get_declaration()
                            if decl is not None and decl.kind != K.NO_DECL_FOUND:
                                base = decl.get_usr()
                                if decl.kind == K.CLASS_DECL and decl.get_definition() is not None:
                                    base = decl.get_definition().get_usr()
                                subclasses.setdefault(base, set()).add(cu)
                                # A base written as a template names its template too.
                                tmpl = b.referenced
                                if tmpl is not None and tmpl.get_usr() != base:
                                    subclasses.setdefault(tmpl.get_usr(), set()).add(cu)
                        elif b.kind in (K.CXX_METHOD, K.FUNCTION_TEMPLATE):
                            mu = b.get_usr()
                            owner[mu] = cu
                            sig[mu] = (b.spelling, param_types(b))
                            methods.setdefault(cu, set()).add(mu)
                            if b.kind == K.CXX_METHOD and b.is_pure_virtual_method():
                                pure[mu] = node(b)
                    walk(ch, caller, ch, templated_in or kind in (K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION))
                    continue
                if kind in FUNCS and ch.is_definition():
                    me = node(ch)
                    if me not in defs.setdefault(ch.get_usr(), []):
                        defs[ch.get_usr()].append(me)
                    templated = templated_in or kind == K.FUNCTION_TEMPLATE or (
                        parent is not None and parent.kind in (K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION))
                    walk(ch, me, ch, templated)
                    continue
                if kind == K.CALL_EXPR and caller is not None:
                    efile = ch.extent.start.file
                    site = {"file": rel(efile.name) if efile else caller["file"], "line": ch.extent.start.line}
                    ref = ch.referenced
                    if ref is None:
                        unresolved.append({"site": site, "status": "unresolved"})
                    elif ref.kind in FUNCS:
                        record(ch, ref, caller, site, parent)
                elif kind == K.UNEXPOSED_EXPR and templated_in and caller is not None and extent_text(ch, texts).endswith(b")"):
                    # A call that depends on a template parameter: clang
                    # resolves it per instantiation only.
                    efile = ch.extent.start.file
                    site = {"file": rel(efile.name) if efile else caller["file"], "line": ch.extent.start.line}
                    unresolved.append({"site": site, "status": "dependent"})
                walk(ch, caller, ch, templated_in)

        def record(call, ref, caller, site, parent):
            name = ref.spelling
            if name in ("make_unique", "make_shared") and ref.semantic_parent is not None and \
                    ref.semantic_parent.spelling == "std":
                made(call, ref, caller, site)
                return
            if name.startswith("operator") or ref.kind in (K.DESTRUCTOR, K.CONVERSION_FUNCTION):
                return
            text = extent_text(call, texts)
            if ref.kind == K.CONSTRUCTOR:
                if ref.is_copy_constructor() or ref.is_move_constructor():
                    return
                has_args = b"(" in text or b"{" in text
                if not name_written(text, name) and not (parent is not None and parent.kind == K.VAR_DECL and has_args):
                    return
            elif not name_written(text, name):
                return  # written in a macro's body
            d = ref.get_definition()
            tmpl = specialized_template(ref)
            if tmpl is not None and tmpl.get_definition() is not None:
                # An instance of a member function template declared in its
                # class and defined out of it is "defined" at the declaration.
                d = tmpl.get_definition()
            target = node(d) if d is not None else None
            callee_text = text.split(b"(")[0]
            qualified = b"::" + name.encode() in callee_text
            virtual = ref.kind == K.CXX_METHOD and ref.is_virtual_method() and not qualified
            calls.append((caller, site, ref.get_usr(), target, node(ref), virtual))

        def made(call, ref, caller, site):
            """std::make_unique<T>(args) and make_shared: T's constructor of
            that many parameters (the class itself when it declares none)."""
            t = ref.get_template_argument_type(0) if ref.get_num_template_arguments() > 0 else None
            decl = t.get_declaration() if t is not None else None
            if decl is None or decl.kind == K.NO_DECL_FOUND or node(decl) is None:
                return
            decl = decl.get_definition() or decl
            n = len(list(call.get_arguments()))
            ctors = [c for c in decl.get_children() if c.kind in (K.CONSTRUCTOR, K.FUNCTION_TEMPLATE)
                     and c.spelling == decl.spelling and not c.is_copy_constructor() and not c.is_move_constructor()]
            if not ctors:
                calls.append((caller, site, None, node(decl), None, False))
                return
            fit = [c for c in ctors if len(list(c.get_arguments())) == n]
            if len(fit) == 1:
                d = fit[0].get_definition()
                calls.append((caller, site, fit[0].get_usr(), node(d) if d is not None else None, node(fit[0]), False))
            else:
                unresolved.append({"site": site, "status": "unresolved"})

        walk(tu.cursor, None, None, False)

    def overrides(mu):
        name_sig = sig.get(mu)
        cls = owner.get(mu)
        if name_sig is None or cls is None:
            return []
        out, seen, queue = [], {cls}, list(subclasses.get(cls, ()))
        while queue:
            c = queue.pop(0)
            if c in seen:
                continue
            seen.add(c)
            for m in methods.get(c, ()):
                if sig.get(m) == name_sig and m in defs and m not in pure:
                    out.extend(defs[m])
            queue.extend(subclasses.get(c, ()))
        return out

    edges, seen = [], set()

    def emit(caller, callee, kind, site):
        e = {"caller": caller, "callee": callee, "kind": kind, "site": site}
        k = json.dumps(e, sort_keys=True)
        if k not in seen:
            seen.add(k)
            edges.append((caller, callee, kind, site, k))

    for caller, site, usr, target, declared, virtual in calls:
        if target is None and usr is not None:
            found = defs.get(usr, [])
            if len(found) > 1:
                unresolved.append({"site": site, "status": "unresolved"})  # two programs define it
                continue
            target = found[0] if found else pure.get(usr)
        if target is None:
            if declared is not None:
                unresolved.append({"site": site, "status": "not-a-node"})
            continue
        emit(caller, target, "static", site)
        if virtual:
            for o in overrides(usr):
                if o != target:
                    emit(caller, o, "dispatch", site)

    static = {(json.dumps(c, sort_keys=True), json.dumps(t, sort_keys=True), json.dumps(s, sort_keys=True))
              for c, t, kind, s, _ in edges if kind == "static"}
    lines = sorted(k for c, t, kind, s, k in edges
                   if kind == "static" or (json.dumps(c, sort_keys=True), json.dumps(t, sort_keys=True),
                                           json.dumps(s, sort_keys=True)) not in static)
    with open(out, "w") as w:
        for k in lines:
            w.write(k + "\n")
    with open(out + ".files.txt", "w") as w:
        for f in sorted(x for x in files_read if x):
            w.write(f + "\n")
    with open(out + ".unresolved.jsonl", "w") as w:
        for u in sorted({json.dumps(u, sort_keys=True) for u in unresolved}):
            w.write(u + "\n")
    with open(out + ".stats.json", "w") as w:
        json.dump({"translationUnits": len(sources), "edges": len(lines), "unresolvedSites": len(unresolved)}, w)


if __name__ == "__main__":
    main()
