"""Reference call graph of a Kotlin repository from the bytecode kotlinc writes.

    callgraph.py <repo-dir> <classes-dir> <files.txt> <out.jsonl>

<classes-dir> holds the classes kotlinc compiled from the files listed in
<files.txt> (repository-relative). Each invoke instruction of a method is a
call at the line its LineNumberTable gives; the owner class, name and
descriptor name the method the compiler resolved. Both ends are mapped back
to the source declarations with the graph's conventions (README.md). Writes
<out.jsonl>, <out.jsonl>.files and <out.jsonl>.stats.json.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jvm"))
import classfile as cfr  # noqa: E402
import receiver  # noqa: E402
from repo import ClassRepo, EdgeOracle, main  # noqa: E402

DEFAULT_MARKER = "Lkotlin/jvm/internal/DefaultConstructorMarker;"


def package_of(lines):
    """The package a Kotlin file declares, "" for none."""
    for ln in lines:
        m = re.match(r"\s*package\s+([\w.`]+)", ln)
        if m:
            return m.group(1).replace("`", "")
    return ""


class Repo(ClassRepo):
    def __init__(self, root, classes_dir, files):
        super().__init__(root, classes_dir, files, package_of)
        self._spans = {}
        self._local_lines = {}
        # Kotlin 1.3 compiles a local `fun` to a class like a lambda's; its
        # enclosing code calls the class's own `invoke` directly, a lambda's
        # invoke is only called through kotlin.jvm.functions.FunctionN.
        self.local_funs = set()
        for c in self.classes.values():
            for m in c.methods:
                for _, op, owner, name, _ in m.invokes:
                    if name == "invoke" and owner != c.name and owner in self.classes and \
                            self.classes[owner].super == "kotlin/jvm/internal/Lambda":
                        self.local_funs.add(owner)

    # --- classes -----------------------------------------------------------

    def file_of(self, c):
        pkg = c.name.rsplit("/", 1)[0].replace("/", ".") if "/" in c.name else ""
        paths = self.by_pkg.get((pkg, c.source_file), [])
        return paths[0] if len(paths) == 1 else None

    def is_companion(self, c):
        outer = self.outer_of(c)
        if not outer or outer not in self.classes:
            return False
        simple = c.name[len(outer) + 1:]
        return any(f[1] == simple and f[2] == "L" + c.name + ";" and f[0] & cfr.ACC_STATIC
                   for f in self.classes[outer].fields)

    def is_object(self, c):
        return any(f[1] == "INSTANCE" and f[2] == "L" + c.name + ";" for f in c.fields)

    def outer_of(self, c):
        info = c.inner.get(c.name)
        if info and info[0]:
            return info[0]
        if "$" in c.name:
            return c.name.rsplit("$", 1)[0]
        return None

    def is_anonymous(self, c):
        info = c.inner.get(c.name)
        return c.enclosing is not None or (info is not None and info[1] is None)

    def is_transparent(self, c):
        """Lambdas and other classes kotlinc makes for code of a function:
        their calls belong to the enclosing declaration."""
        if c.name in self.local_funs or c.name.endswith("$DefaultImpls"):
            return False
        if c.kotlin_kind == 3:
            return True
        return c.super in ("kotlin/jvm/internal/Lambda", "kotlin/jvm/internal/FunctionReference",
                           "kotlin/jvm/internal/PropertyReference0", "kotlin/jvm/internal/PropertyReference1")

    def is_reference(self, c):
        return "Reference" in c.super and c.super.startswith("kotlin/jvm/internal/")

    def is_facade(self, c):
        return c.kotlin_kind in (2, 4, 5)

    def simple_name(self, c):
        info = c.inner.get(c.name)
        if info and info[1]:
            return info[1]
        return c.name.rsplit("/", 1)[-1].rsplit("$", 1)[-1]

    def type_kind(self, c):
        if c.flags & cfr.ACC_INTERFACE:
            return "Interface"
        if c.flags & cfr.ACC_ENUM:
            return "Enum"
        return "Class"

    def owner_class(self, c):
        """The class node that owns code of c outside functions; None: the file."""
        if self.is_facade(c):
            return None
        if self.is_companion(c) or c.name.endswith("$DefaultImpls"):
            return self.owner_class(self.classes[self.outer_of(c)])
        return c

    # --- methods -----------------------------------------------------------

    def in_constructor(self, c, line):
        """Whether `line` lies in a constructor written with the `constructor`
        keyword inside the class body (a secondary constructor)."""
        rel = self.file_of(c)
        if not rel:
            return False
        key = (c.name, "spans")
        spans = self._spans.get(key)
        if spans is None:
            spans = []
            src = self.source[rel]
            for m in c.methods:
                if m.name != "<init>" or m.flags & cfr.ACC_SYNTHETIC:
                    continue
                lines = self.real_lines(m)
                if not lines or not re.search(r"\bconstructor\b", src[lines[0] - 1]):
                    continue
                if re.search(r"\b(class|object)\b", src[lines[0] - 1]) or self._after_header(src, lines[0]):
                    continue  # the primary constructor
                spans.append((lines[0], block_end(src, lines[0])))
            self._spans[key] = spans
        return any(a <= line <= b for a, b in spans)

    @staticmethod
    def _after_header(src, line):
        """Whether the line before `line` (annotations and comments left
        out) is a class header: `class B` then `internal constructor(...)`."""
        for i in range(line - 2, -1, -1):
            t = src[i].strip()
            if not t or t.startswith("@") or t.startswith("//") or t.startswith("*") or t.startswith("/*"):
                continue
            return bool(re.search(r"\bclass\b", t)) and not t.endswith("{")
        return False

    def is_accessor(self, m):
        """A property getter or setter kotlinc generates (not a `fun`)."""
        mm = re.match(r"(get|set|is)([A-Z]\w*)$", demangle(m.name))
        if not mm:
            return False
        rel = self.file_of(m.cls)
        text = "\n".join(self.source[rel]) if rel else ""
        return not re.search(r"\bfun\b[^=({]*?\b" + re.escape(demangle(m.name)) + r"\s*\(", text)

    def forwarded(self, m):
        """For a method kotlinc generates to forward to another one of the
        same name (interface default methods through DefaultImpls, @JvmStatic
        companion members, @JvmOverloads), the method it forwards to."""
        base = demangle(m.name)
        targets = [i for i in m.invokes if demangle(i[3]) == base and i[2] in self.classes and i[3] != "<init>"]
        if len(targets) != 1:
            return None
        _, _, owner, name, desc = targets[0]
        o = self.classes[owner]
        lines = self.real_lines(m)
        if any(f[1].startswith("$$delegate_") for f in m.cls.fields) and targets[0][1] == "invokeinterface" \
                and name == m.name and desc == m.desc:
            return self.resolve(owner, name, desc)  # class delegation `: I by x`
        if not m.lines and m.has_code and name == m.name and desc == m.desc:
            return self.resolve(owner, name, desc)  # no line: generated (class delegation)
        if owner.endswith("$DefaultImpls") and not m.cls.name.endswith("$DefaultImpls") \
                and self.on_header(m):
            # A class inheriting an interface's default method gets one
            # that calls it, on the line of the class (an override calling
            # super.m() has its own `fun m`).
            return self.method(owner, name, desc)
        if self.is_companion(o) and m.flags & cfr.ACC_STATIC and self.outer_of(o) == m.cls.name \
                and name == m.name and desc == m.desc:
            return self.method(owner, name, desc)  # @JvmStatic
        if owner == m.cls.name and desc != m.desc and len(lines) <= 1:
            target = self.method(owner, name, desc)
            if target and lines and lines == self.real_lines(target)[:1]:
                return target  # @JvmOverloads: on the declaration's line
        return None

    FUN = re.compile(r"\bfun\b\s*(?:<[^>]*>\s*)?(?:[\w.<>?*, ]+\.)?`?(\w+)`?\s*\(")

    def source_name(self, m):
        """The name m has in the source: that of the `fun` declared nearest
        above its first line of code (this reads through @JvmName and gives
        local functions their names; local functions declared before that
        line in the enclosing function are skipped), else its JVM name
        without the module suffix of internal members."""
        name = demangle(re.sub(r"\$default$", "", m.name))
        rel = self.file_of(m.cls)
        lines = self.real_lines(m)
        if not rel or m.name in ("<init>", "<clinit>") or not lines:
            return name
        src = self.source[rel]
        skip = set() if m.cls.name in self.local_funs else self.local_fun_lines(rel)
        for i in range(lines[0] - 1, -1, -1):
            mm = self.FUN.search(src[i])
            if mm and i + 1 not in skip:
                return mm.group(1)
        return name

    def local_fun_lines(self, rel):
        """Lines declaring the local functions of a file."""
        if rel not in self._local_lines:
            out = set()
            src = self.source[rel]
            for cname in self.local_funs:
                c = self.classes[cname]
                if self.file_of(c) != rel:
                    continue
                for m in c.methods:
                    lines = self.real_lines(m)
                    if m.name == "invoke" and lines and not m.flags & cfr.ACC_BRIDGE:
                        for i in range(lines[0] - 1, -1, -1):
                            if self.FUN.search(src[i]):
                                out.add(i + 1)
                                break
            self._local_lines[rel] = out
        return self._local_lines[rel]

    def on_header(self, m):
        """Whether all code of m is on its class's header line, where kotlinc
        puts the methods it generates (a `fun` written there excepted)."""
        lines = self.real_lines(m)
        rel = self.file_of(m.cls)
        if not lines or not rel or len(set(lines)) != 1:
            return False
        text = self.source[rel][lines[0] - 1]
        if re.search(r"\bfun\b", text):
            return False
        if re.search(r"\b(class|object)\s+`?" + re.escape(self.simple_name(m.cls)) + r"\b", text):
            return True
        return any(self.real_lines(i)[:1] == lines for i in m.cls.methods
                   if i.name == "<init>" and not i.flags & cfr.ACC_SYNTHETIC)

    def declaration_line(self, m):
        """A line inside the declaration of m: its first line of code, else
        the line of `fun name` after the line of its class's header."""
        lines = self.real_lines(m)
        if m.cls.flags & cfr.ACC_INTERFACE:
            impl = self.method(m.cls.name + "$DefaultImpls", m.name, with_receiver(m))
            if impl:
                lines = self.real_lines(impl) or lines
        if lines:
            return lines[0]
        rel = self.file_of(m.cls)
        if not rel:
            return 0
        src = self.source[rel]
        start = 0
        simple = self.simple_name(m.cls)
        for i, ln in enumerate(src):
            if re.search(r"\b(class|interface|object)\s+" + re.escape(simple) + r"\b", ln):
                start = i
                break
        pat = re.compile(r"\bfun\b[^=({]*?\b" + re.escape(demangle(m.name)) + r"\s*\(")
        for i in range(start, len(src)):
            if pat.search(src[i]):
                return i + 1
        return 0


def block_end(src, line):
    """The last line of the declaration starting at `line`: past its
    parameter list and delegation call, to the brace closing its body."""
    depth, seen_brace = 0, False
    i = line - 1
    while i < len(src):
        text, j = src[i], 0
        while j < len(text):
            ch = text[j]
            if text.startswith("//", j):
                break
            if ch == '"':
                j += 1
                while j < len(text) and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
            elif ch == "'":
                j += 1
                while j < len(text) and text[j] != "'":
                    j += 2 if text[j] == "\\" else 1
            elif ch in "({":
                depth += 1
                seen_brace = seen_brace or ch == "{"
            elif ch in ")}":
                depth -= 1
                if depth == 0 and seen_brace:
                    return i + 1
            j += 1
        if depth == 0 and not seen_brace:
            nxt = next((t.strip() for t in src[i + 1:] if t.strip()), "")
            if not (text.rstrip().endswith((":", ",")) or nxt.startswith((":", "{"))) and "{" not in text:
                return i + 1
        i += 1
    return len(src)


def with_receiver(m):
    return "(L" + m.cls.name + ";" + m.desc[1:]


def demangle(name):
    """`f$main` (internal members) → f."""
    return re.sub(r"\$main$", "", name)


class Oracle(EdgeOracle):
    def __init__(self, repo):
        self.r = repo
        self.edges = set()
        self.receiver_class = None  # the receiver's class of the call at hand, when narrowed

    def endpoint(self, m_or_class, line, name=None, kind=None):
        c = m_or_class if isinstance(m_or_class, cfr.ClassFile) else m_or_class.cls
        e = {"file": self.r.file_of(c), "line": line, "name": name}
        if kind:
            e["kind"] = kind
        return e

    def caller(self, m, line):
        """The node a call at `line` in method m belongs to, or None."""
        r, c = self.r, m.cls
        if r.is_transparent(c) or (r.is_anonymous(c) and m.name == "<init>"):
            if not c.enclosing or c.enclosing[0] not in r.classes:
                r.stats["caller_no_enclosing"] += 1
                return None
            ec, en, ed = c.enclosing
            if en is None:
                return self.class_owned(r.classes[ec], line)
            em = r.method(ec, en, ed)
            if em is None:
                return None
            return self.caller(em, line)
        if m.name == "<clinit>":
            return self.class_owned(c, line)
        if m.name == "<init>":
            if r.is_object(c) or r.is_companion(c) or not (m.flags & cfr.ACC_SYNTHETIC or r.in_constructor(c, line)):
                return self.class_owned(c, line)
            return self.endpoint(c, line, r.simple_name(c))
        if r.is_accessor(m):
            return self.class_owned(c, line)
        return self.endpoint(m, line, r.source_name(m))

    def class_owned(self, c, line):
        owner = self.r.owner_class(c)
        if owner is None:
            return {"file": self.r.file_of(c), "line": 0, "name": ""}
        return self.endpoint(owner, line, self.r.simple_name(owner), self.r.type_kind(owner))

    def callee(self, caller_m, inv):
        """The declaration an invoke instruction calls: (method, kind of
        call) or None when it is no call of the source."""
        r = self.r
        _, op, owner, name, desc = inv
        oc = r.classes.get(owner)
        if oc is None:
            r.stats["external"] += 1
            return None
        if name == "invoke" and owner in r.local_funs:
            return r.method(owner, name, desc)
        if name == "<init>":
            if owner in r.local_funs:
                return None
            if r.is_transparent(oc) or r.is_anonymous(oc) or r.is_object(oc) or r.is_companion(oc):
                r.stats["skipped_generated_class_creation"] += 1
                return None
            if oc.flags & cfr.ACC_ENUM and caller_m.cls is oc and caller_m.name == "<clinit>":
                r.stats["skipped_enum_constant"] += 1
                return None
            ps = cfr.params(desc)
            if ps[-2:] == ["I", DEFAULT_MARKER]:
                desc = cfr.with_params(ps[:-2], desc)
            elif ps[-1:] == [DEFAULT_MARKER]:
                desc = cfr.with_params(ps[:-1], desc)
            m = r.method(owner, name, desc)
            return m
        if name.startswith("access$"):
            real = name[len("access$"):]
            if re.search(r"\$(p|cp|lp)$", real) or re.match(r"(get|set)", real) and "$" in real:
                r.stats["skipped_property_access"] += 1
                return None
            ps = cfr.params(desc)
            for cand in (desc, cfr.with_params(ps[1:], desc)):
                m = r.method(owner, real, cand)
                if m:
                    return self.checked(m)
            r.stats["unresolved_access"] += 1
            return None
        if name.endswith("$default"):
            real = name[: -len("$default")]
            ps = cfr.params(desc)[:-2]
            for cand in (cfr.with_params(ps, desc), cfr.with_params(ps[1:], desc)):
                m = r.resolve(owner, real, cand)
                if m and not m.flags & cfr.ACC_STATIC:
                    # The stub is static in the declaring class: the
                    # receiver's own type is that of the value passed.
                    t = receiver.receiver_type(caller_m, inv[0], len(ps) + 1)
                    if t in r.classes and t != owner and owner in r.supertypes(t):
                        narrowed = r.resolve(t, real, cand)
                        if narrowed is not None:
                            m = narrowed
                            self.receiver_class = t
                            r.stats["default_call_receiver_typed"] += 1
                if m:
                    return self.checked(m)
            r.stats["unresolved_default"] += 1
            return None
        m = r.resolve(owner, name, desc)
        if m is None:
            r.stats["external_inherited"] += 1
            return None
        return self.checked(m)

    def checked(self, m):
        r = self.r
        if r.is_accessor(m):
            r.stats["skipped_property_accessor"] += 1
            return None
        if m.flags & cfr.ACC_BRIDGE:
            targets = [i for i in m.invokes if i[3] == m.name and i[2] in r.classes]
            if targets:
                target = r.method(targets[0][2], targets[0][3], targets[0][4])
                return self.checked(target) if target is not None and target is not m else target
        fwd = r.forwarded(m)
        return fwd if fwd is not None else m

    def callee_endpoint(self, m):
        r = self.r
        c = m.cls
        if c.name.endswith("$DefaultImpls"):
            iface = r.classes.get(r.outer_of(c))
            im = r.method(iface.name, m.name, "(" + m.desc[len("(L" + iface.name + ";"):]) if iface else None
            if im:
                m = im
        if m.name == "<init>":
            return self.endpoint(m, r.declaration_line(m), r.simple_name(m.cls))
        return self.endpoint(m, r.declaration_line(m), r.source_name(m))

    def dispatch_targets(self, inv, static_m):
        """Methods of repository subtypes of the receiver's class that run
        instead of static_m."""
        r = self.r
        _, op, owner, name, desc = inv
        owner = self.receiver_class or owner
        virtual = op in ("invokevirtual", "invokeinterface") or (op == "invokestatic" and name.endswith("$default"))
        if not virtual or static_m.name == "<init>" or owner in r.local_funs:
            return []
        if static_m.flags & (cfr.ACC_FINAL | cfr.ACC_PRIVATE | cfr.ACC_STATIC):
            return []
        name, desc = static_m.name, static_m.desc
        if static_m.cls.name.endswith("$DefaultImpls"):
            return []
        out = []
        for s in sorted(r.subtypes.get(owner, set()) | {owner}):
            impl = r.resolve(s, name, desc)
            # Prefer a class's own method over an interface's abstract one.
            cur = r.classes.get(s)
            while impl is not None and impl.flags & cfr.ACC_ABSTRACT and cur is not None:
                cur = r.classes.get(cur.super)
                impl = r.resolve(cur.name, name, desc) if cur else impl
            if impl is None or impl.flags & cfr.ACC_ABSTRACT or impl is static_m:
                continue
            if impl.flags & cfr.ACC_BRIDGE:
                impl = self.checked(impl)
                if impl is None:
                    continue
            fwd = r.forwarded(impl)
            if fwd is not None:
                impl = fwd
            if impl is static_m or impl.cls.name == static_m.cls.name + "$DefaultImpls":
                continue
            out.append(impl)
        return out

    def run(self):
        r = self.r
        for cname in sorted(r.classes):
            c = r.classes[cname]
            if r.file_of(c) is None:
                r.stats["class_without_source"] += 1
                continue
            if r.is_reference(c):
                r.stats["skipped_callable_reference_class"] += 1
                continue
            nlines = len(r.source[r.file_of(c)])
            for m in c.methods:
                if m.flags & cfr.ACC_BRIDGE or (m.flags & cfr.ACC_SYNTHETIC and not m.name.endswith("$default")
                                                and m.name != "<init>"):
                    continue
                if r.forwarded(m) is not None:
                    r.stats["skipped_generated_forwarder"] += 1
                    continue
                for inv in m.invokes:
                    line = m.line_at(inv[0])
                    if not 0 < line <= nlines:
                        continue  # code of an inline function kotlinc copied here
                    if m.name.endswith("$default") and inv[3] == m.name[: -len("$default")]:
                        continue  # the stub calls the function it fills the defaults of
                    if m.name == "<init>" and m.flags & cfr.ACC_SYNTHETIC and inv[3] == "<init>" and inv[2] == c.name:
                        continue  # a synthetic constructor (defaults, private access) calls the real one
                    self.receiver_class = None
                    callee = self.callee(m, inv)
                    if callee is None:
                        continue
                    if self.referenced(callee, r.source[r.file_of(c)][line - 1]):
                        r.stats["skipped_callable_reference"] += 1
                        continue
                    caller = self.caller(m, line)
                    if caller is None or caller["file"] is None:
                        r.stats["caller_unmapped"] += 1
                        continue
                    if m.name == "<init>" and inv[3] == "<init>" and inv[2] == c.super and \
                            "constructor" not in r.source[r.file_of(c)][line - 1] and not r.is_anonymous(c):
                        caller = self.class_owned(c, line)  # the supertype written in the header
                    self.add(caller, callee, "static", line)
                    for d in self.dispatch_targets(inv, callee):
                        self.add(caller, d, "dispatch", line)
            self.inlined(c, nlines)

    def referenced(self, callee, text):
        """Whether the line names the callee by a callable reference
        (`xs.map(::f)`, which kotlinc compiles into a call when the function
        taking it is inline) and never calls it by name."""
        if callee.name == "<init>":
            return False
        name = re.escape(self.r.source_name(callee))
        return re.search(r"::\s*" + name + r"\b", text) is not None and \
            re.search(r"(?<!::)\b" + name + r"\s*[({]", text) is None

    def inlined(self, c, nlines):
        """Calls of the repository's inline functions: kotlinc copies their
        code into the caller; the class's SMAP names the copied lines and
        (KotlinDebug) the line of the call."""
        r = self.r
        strata = parse_smap(c.smap)
        if "Kotlin" not in strata:
            return
        files, ranges = strata["Kotlin"]
        _, debug = strata.get("KotlinDebug", ({}, []))
        for src, fid, count, dest in ranges:
            path = files.get(fid)
            if fid == 1 or path not in r.classes:
                continue
            target = None
            for m in r.classes[path].methods:
                if m.flags & cfr.ACC_SYNTHETIC:
                    continue
                if set(range(src, src + count)) & set(r.real_lines(m)):
                    target = m
                    break
            site = next((s for s, _, n, d in debug if d <= dest < d + n), 0)
            if target is None or not 0 < site <= nlines:
                r.stats["inline_unmapped"] += 1
                continue
            holder = next((m for m in c.methods if any(ln == dest for _, ln in m.lines)), None)
            if holder is None:
                continue
            caller = self.caller(holder, site)
            if caller is None or caller["file"] is None:
                continue
            r.stats["inline_calls"] += 1
            self.add(caller, target, "static", site)


def parse_smap(text):
    """SMAP strata: name -> ({file id: class path}, [(src, file id, count, dest)])."""
    out = {}
    if not text.startswith("SMAP"):
        return out
    lines = text.split("\n")
    i, stratum = 0, None
    while i < len(lines):
        ln = lines[i].strip()
        if ln.startswith("*S "):
            stratum = ln[3:].strip()
            out[stratum] = ({}, [])
        elif ln == "*F" and stratum:
            i += 1
            while i < len(lines) and lines[i].startswith("+ "):
                fid = int(lines[i].split()[1])
                out[stratum][0][fid] = lines[i + 1].strip()
                i += 2
            continue
        elif ln == "*L" and stratum:
            i += 1
            fid = 1
            while i < len(lines) and not lines[i].startswith("*"):
                m = re.match(r"(\d+)(?:#(\d+))?(?:,(\d+))?:(\d+)", lines[i].strip())
                if m:
                    fid = int(m.group(2)) if m.group(2) else fid
                    out[stratum][1].append((int(m.group(1)), fid, int(m.group(3) or 1), int(m.group(4))))
                i += 1
            continue
        i += 1
    return out


if __name__ == "__main__":
    main(Repo, Oracle)
