"""Reference call graph of a Scala 2 repository from the bytecode scalac writes.

    callgraph.py <repo-dir> <classes-dir> <files.txt> <out.jsonl>

Each invoke instruction of a method is a call, at the line its
LineNumberTable gives, to the method scalac resolved; both ends are mapped
back to the source declarations with the graph's conventions (README.md).
Writes <out.jsonl>, <out.jsonl>.files and <out.jsonl>.stats.json.
"""

import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jvm"))
import classfile as cfr  # noqa: E402
from repo import ClassRepo, EdgeOracle, main  # noqa: E402

# scalac's encoding of operator characters in JVM names.
OPERATORS = {"$plus": "+", "$minus": "-", "$times": "*", "$div": "/", "$bslash": "\\", "$bar": "|",
             "$amp": "&", "$less": "<", "$greater": ">", "$eq": "=", "$bang": "!", "$colon": ":",
             "$percent": "%", "$up": "^", "$tilde": "~", "$qmark": "?", "$at": "@", "$hash": "#"}


def decode(name):
    """The source name of a JVM method name: operators decoded, the
    expanded prefix of private members (`p$C$$f`) and the `$1` of lifted
    local defs removed, `f$default$2` is f."""
    if "$default$" in name:
        name = name[: name.index("$default$")]
    if "$$" in name:
        name = name[name.rindex("$$") + 2:]
    name = re.sub(r"\$\d+$", "", name)
    for code, op in OPERATORS.items():
        name = name.replace(code, op)
    return name


def package_of(lines):
    """The package a Scala file's package clauses add up to ("a.b" for
    `package a` then `package b`), "" for none; `package object` is not one."""
    parts = []
    for ln in lines:
        m = re.match(r"\s*package\s+([\w.]+)\s*$", ln)
        if m and not re.match(r"\s*package\s+object\b", ln):
            parts.append(m.group(1))
        elif ln.strip() and not ln.strip().startswith(("//", "/*", "*", "package")):
            break
    return ".".join(parts)


class Repo(ClassRepo):
    def __init__(self, root, classes_dir, files):
        super().__init__(root, classes_dir, files, package_of)
        self._defs = {}

    def file_of(self, c):
        pkg = c.name.rsplit("/", 1)[0].replace("/", ".") if "/" in c.name else ""
        paths = self.by_pkg.get((pkg, c.source_file), [])
        if len(paths) == 1:
            return paths[0]
        paths = [p for (_, base), ps in self.by_pkg.items() if base == c.source_file for p in ps]
        return paths[0] if len(paths) == 1 else None

    # --- kinds of classes ----------------------------------------------------

    def is_module(self, c):
        """An `object`'s class (`O$`: a top-level one has its MODULE$, one
        nested in a class or trait is reached through its `$outer`)."""
        return any(f[1] == "MODULE$" for f in c.fields) or \
            (c.name.endswith("$") and "$$anon" not in c.name)

    def is_function(self, c):
        """A lambda's class: its code belongs to the enclosing method."""
        return "$$anonfun$" in c.name or (c.enclosing is not None and c.super.startswith(
            ("scala/runtime/AbstractFunction", "scala/runtime/AbstractPartialFunction")))

    def is_anonymous(self, c):
        return "$$anon$" in c.name.rsplit("/", 1)[-1] or (c.enclosing is not None and not self.is_function(c))

    def is_impl_class(self, c):
        """A trait's implementation class (`T$class`, Scala 2.11)."""
        return c.name.endswith("$class")

    def trait_of(self, c):
        return self.classes.get(c.name[: -len("$class")])

    def node_class(self, c):
        """The class whose node code of c belongs to: a companion object's
        code is its class's (same name, same file), a trait's
        implementation class is the trait."""
        if self.is_impl_class(c):
            return self.trait_of(c) or c
        if self.is_module(c) and c.name.endswith("$"):
            companion = self.classes.get(c.name[:-1])
            if companion is not None and not self.is_module(companion) and \
                    self.file_of(companion) == self.file_of(c):
                return companion
        return c

    def simple_name(self, c):
        info = c.inner.get(c.name)
        if info and info[1]:
            return decode(info[1].rstrip("$"))
        name = c.name.rsplit("/", 1)[-1].rstrip("$")
        for code in OPERATORS:  # `Parsers$$tilde` is the class `~` of Parsers
            name = name.replace(code, "\0" + code[1:])
        return decode(name.rsplit("$", 1)[-1].replace("\0", "$"))

    def type_kind(self, c):
        if c.flags & cfr.ACC_INTERFACE:
            return "Interface"
        return "Class"

    # --- methods -------------------------------------------------------------

    def defs(self, rel):
        """Line numbers of each name declared with `def` in a file."""
        if rel not in self._defs:
            out = collections.defaultdict(list)
            for i, ln in enumerate(self.source[rel]):
                for mm in re.finditer(r"\bdef\s+(this\b|[\w]+|[^\s\w\[\](){}:,;.'\"`]+|`[^`]+`)", ln):
                    out[mm.group(1).strip("`")].append(i + 1)
            self._defs[rel] = out
        return self._defs[rel]

    def def_line(self, m):
        """The line of m's `def`: going up from its first line of code to
        `def <name>`; 0 when there is none."""
        rel = self.file_of(m.cls)
        lines = self.real_lines(m)
        if not lines and m.cls.flags & cfr.ACC_INTERFACE:
            impl = self.method(m.cls.name + "$class", m.name, "(L" + m.cls.name + ";" + m.desc[1:])
            lines = self.real_lines(impl) if impl else []
        if not rel or not lines:
            return 0
        src = self.source[rel]
        own = re.compile(r"\bdef\s+`?" + re.escape(decode(m.name)) + r"(?![\w])")
        for i in range(lines[0] - 1, max(-1, lines[0] - 200), -1):
            if own.search(src[i]):
                return i + 1
            if re.search(r"\b(class|object|trait)\s", src[i]):
                return 0
        return 0

    def is_written_def(self, m):
        """Whether m is a `def` of the source: for a method with code, a
        `def <name>` comes before a `val <name>` and before the class's
        header going up from its first line (a val's accessor has the val's
        line); for an abstract one, some `def` of the file has its name."""
        rel = self.file_of(m.cls)
        name = decode(m.name)
        if not rel or name not in self.defs(rel):
            return False
        lines = self.real_lines(m)
        if not lines:
            return True
        src = self.source[rel]
        own = re.compile(r"\bdef\s+`?" + re.escape(name) + r"(?![\w])")
        val = re.compile(r"\b(val|var)\s+`?" + re.escape(name) + r"(?![\w])")
        for i in range(lines[0] - 1, max(-1, lines[0] - 200), -1):
            if val.search(src[i]):
                return False
            if own.search(src[i]):
                return True
            if re.search(r"\b(class|object|trait)\s", src[i]):
                return False
        return False

    def generated(self, m):
        """Methods scalac writes on the class's header line (a case class's
        apply, copy, equals, productElement...; a constructor parameter's
        default value `<init>$default$N` excepted), and forwarders without
        lines."""
        if m.name in ("<init>", "<clinit>", "$init$") or m.name.startswith("$lessinit$greater$default$"):
            return False
        if self.is_written_def(m) or self.is_function(m.cls):
            return False
        lines = set(self.real_lines(m))
        return not lines or lines <= {self.header_line(self.node_class(m.cls)), self.header_line(m.cls)}

    def forwarded(self, m):
        """For a method scalac generates to forward to another (a trait's
        method mixed into a class, an object's static forwarder), that one."""
        targets = [i for i in m.invokes if i[3] == m.name and i[2] in self.classes]
        if len(targets) != 1:
            return None
        _, op, owner, name, desc = targets[0]
        lines = set(self.real_lines(m))
        if owner.endswith("$class") and not m.cls.name.endswith("$class") and \
                lines <= {self.header_line(m.cls)}:
            # A trait's method mixed into a class (an override calling
            # super.m() has lines of its own).
            return self.method(owner, name, desc)
        if m.flags & cfr.ACC_STATIC and owner == m.cls.name + "$" and desc == m.desc:
            return self.method(owner, name, desc)
        return None

    def declaration_line(self, m):
        lines = self.real_lines(m)
        if m.cls.flags & cfr.ACC_INTERFACE:
            impl = self.method(m.cls.name + "$class", m.name, "(L" + m.cls.name + ";" + m.desc[1:])
            if impl:
                lines = self.real_lines(impl) or lines
        if lines:
            return lines[0]
        rel = self.file_of(m.cls)
        if not rel:
            return 0
        cands = self.defs(rel).get(decode(m.name), [])
        header = self.header_line(m.cls)
        after = [ln for ln in cands if ln >= header]
        return (after or cands or [0])[0]

    def header_line(self, c):
        rel = self.file_of(c)
        if not rel:
            return 0
        if self.is_anonymous(c):
            # `new T { ... }`: the line of `new`, where its constructor is.
            lines = [ln for m in c.methods if m.name == "<init>" for ln in self.real_lines(m)]
            return min(lines) if lines else 0
        # A declaration, not a comment: modifiers, then the keyword.
        pat = re.compile(r"^\s*(@\S+\s+)*((private|protected)(\[\w+\])?\s+|(final|sealed|abstract|case|implicit|"
                         r"lazy)\s+)*" + ("object" if self.is_module(c) else "(class|trait)") + r"\s+`?" +
                         re.escape(self.simple_name(c)) + r"(?![\w$])")
        for i, ln in enumerate(self.source[rel]):
            if pat.search(ln):
                return i + 1
        return 0


class Oracle(EdgeOracle):
    def __init__(self, repo):
        self.r = repo
        self.edges = set()
        self.super_call = False  # the call at hand goes through a trait's super accessor

    def class_owned(self, c, line):
        if self.r.is_anonymous(c) or self.r.is_function(c):
            # An anonymous class is no node: code of its body outside its
            # defs is the enclosing function's.
            if not c.enclosing or c.enclosing[0] not in self.r.classes:
                return None
            ec, en, ed = c.enclosing
            em = self.r.method(ec, en, ed) if en else None
            return self.caller(em, line) if em is not None else self.class_owned(self.r.classes[ec], line)
        owner = self.r.node_class(c)
        if owner is not c and not self.r.is_impl_class(c):
            # A companion object's code is its class's, but lies outside
            # the class's lines: name the class by its header.
            line = self.r.header_line(owner) or line
        return {"file": self.r.file_of(owner), "line": line, "name": self.r.simple_name(owner),
                "kind": self.r.type_kind(owner)}

    def caller(self, m, line):
        r, c = self.r, m.cls
        lifted = r.is_function(c) and re.search(r"\$\d+$", m.name) is not None and r.is_written_def(m)
        if (r.is_function(c) and not lifted) or (r.is_anonymous(c) and m.name == "<init>"):
            # A local def written in a lambda is lifted into the lambda's
            # class: it stays a caller of its own.
            if not c.enclosing or c.enclosing[0] not in r.classes:
                r.stats["caller_no_enclosing"] += 1
                return None
            ec, en, ed = c.enclosing
            if en is None:
                return self.class_owned(r.classes[ec], line)
            em = r.method(ec, en, ed)
            return self.caller(em, line) if em is not None else None
        if m.name in ("<clinit>", "$init$"):
            return self.class_owned(c, line)
        rel = r.file_of(c)
        if m.name == "<init>":
            if r.is_module(c) or not self.in_auxiliary(c, line):
                return self.class_owned(c, line)
            return {"file": rel, "line": line, "name": r.simple_name(r.node_class(c))}
        if "$default$" in m.name and m.name.startswith("$lessinit$greater"):
            return {"file": rel, "line": line, "name": r.simple_name(r.node_class(c))}
        if not r.is_written_def(m):
            # A val's initializer compiled into its accessor (lazy vals),
            # `liftedTree` of a try: the code of the def above, or the class.
            found = self.enclosing_def(rel, line)
            if found is None:
                return self.class_owned(c, line)
            return {"file": rel, "line": found[1], "name": found[0]}
        # A def by the line of its `def`, which its node spans even where
        # the body on the next lines is read apart.
        return {"file": rel, "line": r.def_line(m) or line, "name": decode(m.name)}

    def enclosing_def(self, rel, line):
        src = self.r.source[rel]
        for i in range(line - 1, -1, -1):
            mm = re.search(r"\bdef\s+(\w+)", src[i])
            if mm:
                return (mm.group(1), i + 1) if mm.group(1) != "this" else None
            if re.search(r"\b(class|trait|object)\s+\w", src[i]):
                return None
        return None

    def in_auxiliary(self, c, line):
        rel = self.r.file_of(c)
        src = self.r.source[rel]
        for m in c.methods:
            if m.name != "<init>":
                continue
            lines = self.r.real_lines(m)
            if not lines or not lines[0] <= line <= lines[-1]:
                continue
            for i in range(lines[0] - 1, -1, -1):
                if re.search(r"\bdef\s+this\b", src[i]):
                    return True
                if re.search(r"\b(def|class|object|trait)\b", src[i]):
                    break
        return False

    def callee(self, caller_m, inv):
        """(method, virtual) the instruction calls, or None."""
        r = self.r
        _, op, owner, name, desc = inv
        oc = r.classes.get(owner)
        if oc is None:
            r.stats["external"] += 1
            return None
        if name == "<init>":
            if r.is_function(oc) or r.is_anonymous(oc) or r.is_module(oc):
                r.stats["skipped_generated_class_creation"] += 1
                return None
            return r.method(owner, name, desc)
        if "$$super$" in name:
            # `super.m()` in a trait calls the trait's super accessor,
            # which the class mixing it in implements: the m of the
            # trait's own supertypes.
            real = name[name.index("$$super$") + len("$$super$"):]
            self.super_call = True
            for sup in oc.interfaces + [oc.super]:
                m = r.resolve(sup, real, desc)
                if m is not None:
                    return self.checked(m)
            r.stats["external_super"] += 1
            return None
        if name == "$init$" or "$default$" in name:
            r.stats["skipped_initializer_or_default"] += 1
            return None
        m = r.resolve(owner, name, desc)
        if m is None:
            r.stats["external_inherited"] += 1
            return None
        return self.checked(m)

    def checked(self, m):
        r = self.r
        if m.flags & cfr.ACC_BRIDGE:
            ts = [i for i in m.invokes if i[3] == m.name and i[2] in r.classes]
            if ts:
                t = r.method(ts[0][2], ts[0][3], ts[0][4])
                return self.checked(t) if t is not None and t is not m else t
        fwd = r.forwarded(m)
        if fwd is not None:
            return self.checked(fwd)
        if m.name == "<init>":
            return m
        if m.name == "apply" and r.is_module(m.cls) and not r.is_written_def(m):
            # A case class's companion apply: the constructor.
            cls = r.classes.get(m.cls.name[:-1])
            ps = cfr.params(m.desc)
            for ctor in (cls.methods if cls else []):
                # A class nested in another takes its outer instance first.
                cps = cfr.params(ctor.desc)
                if ctor.name == "<init>" and (cps == ps or (len(cps) == len(ps) + 1 and cps[1:] == ps)):
                    return ctor
        if not r.is_written_def(m):
            r.stats["skipped_not_a_def"] += 1  # val accessors, members scalac writes
            return None
        return m

    def callee_endpoint(self, m):
        r = self.r
        def_line = r.def_line(m)  # a trait's method: from its code in T$class
        if r.is_impl_class(m.cls):
            t = r.trait_of(m.cls)
            im = r.method(t.name, m.name, "(" + m.desc[len("(L" + t.name + ";"):]) if t else None
            if im:
                m = im
        line = r.declaration_line(m)
        if m.name == "<init>":
            # The primary constructor is on the class's header (scalac can
            # give a class without code in its body another line); an
            # auxiliary one has the lines of its body.
            if not self.in_auxiliary(m.cls, line):
                line = r.header_line(m.cls) or line
            return {"file": r.file_of(m.cls), "line": line, "name": r.simple_name(r.node_class(m.cls))}
        # A def by the line of its `def`: its node spans it even where the
        # body on the next lines is read apart.
        return {"file": r.file_of(m.cls), "line": def_line or r.def_line(m) or line, "name": decode(m.name)}

    def dispatch_targets(self, inv, static_m):
        r = self.r
        _, op, owner, name, desc = inv
        if op not in ("invokevirtual", "invokeinterface") or static_m.name == "<init>":
            return []
        if static_m.flags & (cfr.ACC_FINAL | cfr.ACC_PRIVATE | cfr.ACC_STATIC) or r.is_impl_class(static_m.cls):
            return []
        out = []
        for s in sorted(r.subtypes.get(owner, set()) | {owner}):
            impl = r.resolve(s, static_m.name, static_m.desc)
            cur = r.classes.get(s)
            while impl is not None and impl.flags & cfr.ACC_ABSTRACT and cur is not None:
                cur = r.classes.get(cur.super)
                impl = r.resolve(cur.name, static_m.name, static_m.desc) if cur else impl
            if impl is None or impl.flags & cfr.ACC_ABSTRACT:
                continue
            impl = self.checked(impl)
            if impl is None or impl is static_m:
                continue
            if r.is_impl_class(impl.cls) and r.trait_of(impl.cls) is static_m.cls:
                continue
            out.append(impl)
        return out

    def run(self):
        r = self.r
        for cname in sorted(r.classes):
            c = r.classes[cname]
            rel = r.file_of(c)
            if rel is None:
                r.stats["class_without_source"] += 1
                continue
            nlines = len(r.source[rel])
            for m in c.methods:
                if m.flags & cfr.ACC_BRIDGE or (m.has_code and not m.lines):
                    continue  # bridges, forwarders scalac writes without lines
                if r.forwarded(m) is not None:
                    r.stats["skipped_generated_forwarder"] += 1
                    continue
                if r.generated(m):
                    r.stats["skipped_generated_method"] += 1
                    continue
                for inv in m.invokes:
                    line = m.line_at(inv[0])
                    if not 0 < line <= nlines:
                        continue
                    self.super_call = False
                    callee = self.callee(m, inv)
                    if callee is None:
                        continue
                    if not self.written(callee, r.source[rel][line - 1]):
                        r.stats["skipped_not_written"] += 1  # implicit conversions and arguments
                        continue
                    caller = self.caller(m, line)
                    if caller is None or caller["file"] is None:
                        r.stats["caller_unmapped"] += 1
                        continue
                    self.add(caller, callee, "static", line)
                    if self.super_call or inv[1] == "invokespecial":
                        continue
                    for d in self.dispatch_targets(inv, callee):
                        self.add(caller, d, "dispatch", line)
                self.tail_calls(m)

    def tail_calls(self, m):
        """Self-recursive calls in tail position (on this, or on another
        instance when the method cannot be overridden), which scalac
        compiles to a jump back to the method's start: taken from the
        source, on the method's lines after its `def` that call its name
        with no invoke of it, when the method jumps backwards and its class
        has no other def of that name."""
        r = self.r
        if not any(op == 0xA7 and target is not None and target < pc for pc, op, target in m.code):
            return
        if not r.is_written_def(m) or m.name in ("<init>", "<clinit>"):
            return
        name = decode(m.name)
        if sum(1 for o in m.cls.methods if decode(o.name) == name and not o.flags & cfr.ACC_BRIDGE) != 1:
            return
        rel = r.file_of(m.cls)
        first = r.def_line(m)
        lines = r.real_lines(m)
        if not first or not lines:
            return
        called = {m.line_at(i[0]) for i in m.invokes if decode(i[3]) == name}
        pat = re.compile(r"(?<![\w])" + re.escape(name) + r"\s*[(\[]")
        for line in range(first + 1, lines[-1] + 1):
            if line not in called and pat.search(r.source[rel][line - 1]):
                caller = self.caller(m, line)
                if caller is not None and caller["file"] is not None:
                    r.stats["tail_calls"] += 1
                    self.add(caller, m, "static", line)

    def written(self, callee, text):
        """Whether the call is written on its line: its name (an operator's
        symbol), or for a constructor or apply its class's name."""
        if callee.name == "<init>":
            return True
        name = decode(callee.name)
        if name in ("apply", "update"):
            return True
        return name in text


if __name__ == "__main__":
    main(Repo, Oracle)
