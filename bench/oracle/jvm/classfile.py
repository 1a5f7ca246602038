"""A minimal reader of JVM class files: what the call-graph oracles need.

Reads the constant pool, the class's flags, super class, interfaces and the
attributes SourceFile, EnclosingMethod, InnerClasses, SourceDebugExtension
and the kotlin.Metadata `k` value; for each method its flags, name,
descriptor, LineNumberTable and the invoke instructions of its code (offset,
opcode, owner, name, descriptor). Java 17 has no class-file API and javap's
text is meant for people, hence this reader (the format: JVMS chapter 4).
"""

import struct

ACC_PUBLIC, ACC_PRIVATE, ACC_STATIC, ACC_FINAL = 0x1, 0x2, 0x8, 0x10
ACC_BRIDGE, ACC_SYNTHETIC, ACC_INTERFACE, ACC_ABSTRACT = 0x40, 0x1000, 0x200, 0x400
ACC_ENUM = 0x4000

INVOKES = {0xB6: "invokevirtual", 0xB7: "invokespecial", 0xB8: "invokestatic", 0xB9: "invokeinterface"}

# Lengths of the fixed-size instructions (opcode included); 0 = variable.
_LEN = [1] * 256
for op in (0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3A, 0xA9, 0xBC):
    _LEN[op] = 2
for op in list(range(0x99, 0xA9)) + [0x11, 0x13, 0x14, 0x84, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8,
                                      0xBB, 0xBD, 0xC0, 0xC1, 0xC6, 0xC7]:
    _LEN[op] = 3
_LEN[0xC5] = 4
for op in (0xB9, 0xBA, 0xC8, 0xC9):
    _LEN[op] = 5
_LEN[0xAA] = _LEN[0xAB] = _LEN[0xC4] = 0


class Method:
    def __init__(self, cls, flags, name, desc):
        self.cls, self.flags, self.name, self.desc = cls, flags, name, desc
        self.lines = []    # (start_pc, line), sorted by pc
        self.invokes = []  # (pc, opcode name, owner, name, desc)
        self.code = []     # (pc, opcode, operand): a member ref tuple, a class name, a local slot,
        #                    a branch's target pc, or None
        self.targets = set()  # pcs control can reach other than from the instruction before
        self.locals = []   # (start_pc, length, slot, descriptor) of the LocalVariableTable
        self.has_code = False

    def line_at(self, pc):
        line = 0
        for start, ln in self.lines:
            if start <= pc:
                line = ln
            else:
                break
        return line

    def __repr__(self):
        return f"{self.cls.name}.{self.name}{self.desc}"


class ClassFile:
    def __init__(self):
        self.name = self.super = ""
        self.flags = 0
        self.interfaces = []
        self.source_file = ""
        self.enclosing = None       # (class, method name or None, desc or None)
        self.inner = {}             # class name -> (outer or None, simple name or None)
        self.smap = ""
        self.kotlin_kind = 0        # kotlin.Metadata k (1 class, 2 file facade, 3 synthetic, ...)
        self.fields = []            # (flags, name, desc)
        self.methods = []


def _mutf8(b):
    return b.decode("utf-8", errors="replace")


def read(data):
    """Parses the bytes of one class file."""
    pos = 8
    (count,) = struct.unpack_from(">H", data, pos)
    pos += 2
    cp = [None] * count
    i = 1
    while i < count:
        tag = data[pos]
        pos += 1
        if tag == 1:
            (n,) = struct.unpack_from(">H", data, pos)
            cp[i] = ("utf8", _mutf8(data[pos + 2:pos + 2 + n]))
            pos += 2 + n
        elif tag in (3, 4):
            cp[i] = ("int", struct.unpack_from(">i", data, pos)[0])
            pos += 4
        elif tag in (5, 6):
            pos += 8
            i += 1
        elif tag in (7, 8, 16, 19, 20):
            cp[i] = ({7: "class", 8: "string", 16: "mtype", 19: "module", 20: "package"}[tag],
                     struct.unpack_from(">H", data, pos)[0])
            pos += 2
        elif tag in (9, 10, 11, 12, 17, 18):
            cp[i] = ({9: "field", 10: "method", 11: "imethod", 12: "nat", 17: "dynamic", 18: "indy"}[tag],
                     struct.unpack_from(">HH", data, pos))
            pos += 4
        elif tag == 15:
            pos += 3
        else:
            raise ValueError(f"constant pool tag {tag}")
        i += 1

    def utf(idx):
        return cp[idx][1]

    def cls_name(idx):
        return utf(cp[idx][1]) if idx else ""

    def const(idx):
        """A class name for a class constant, a member tuple for a member."""
        kind = cp[idx][0] if cp[idx] else None
        if kind == "class":
            return cls_name(idx)
        if kind in ("field", "method", "imethod"):
            return member_ref(idx)
        return None

    def member_ref(idx):
        kind, (ci, nt) = cp[idx]
        n, d = cp[nt][1]
        return kind, cls_name(ci), utf(n), utf(d)

    cf = ClassFile()
    cf.flags, this, sup = struct.unpack_from(">HHH", data, pos)
    pos += 6
    cf.name, cf.super = cls_name(this), cls_name(sup)
    (n,) = struct.unpack_from(">H", data, pos)
    pos += 2
    for _ in range(n):
        cf.interfaces.append(cls_name(struct.unpack_from(">H", data, pos)[0]))
        pos += 2

    def attributes(pos, handle):
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(n):
            ni, length = struct.unpack_from(">HI", data, pos)
            pos += 6
            handle(utf(ni), pos, length)
            pos += length
        return pos

    def members(pos, on_member):
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(n):
            flags, ni, di = struct.unpack_from(">HHH", data, pos)
            pos += 6
            pos = on_member(flags, utf(ni), utf(di), pos)
        return pos

    def on_field(flags, name, desc, pos):
        cf.fields.append((flags, name, desc))
        return attributes(pos, lambda *a: None)

    def on_method(flags, name, desc, pos):
        m = Method(cf, flags, name, desc)
        cf.methods.append(m)

        def handle(aname, apos, alen):
            if aname != "Code":
                return
            m.has_code = True
            code_len = struct.unpack_from(">I", data, apos + 4)[0]
            code_start = apos + 8
            _scan_code(data, code_start, code_len, m, member_ref, const)
            p = code_start + code_len
            (exc,) = struct.unpack_from(">H", data, p)
            for j in range(exc):
                m.targets.add(struct.unpack_from(">H", data, p + 2 + 8 * j + 4)[0])
            p += 2 + 8 * exc

            def code_attr(cname, cpos, clen):
                if cname == "LineNumberTable":
                    (k,) = struct.unpack_from(">H", data, cpos)
                    for j in range(k):
                        m.lines.append(struct.unpack_from(">HH", data, cpos + 2 + 4 * j))
                elif cname == "LocalVariableTable":
                    (k,) = struct.unpack_from(">H", data, cpos)
                    for j in range(k):
                        start, length, _, di, slot = struct.unpack_from(">HHHHH", data, cpos + 2 + 10 * j)
                        m.locals.append((start, length, slot, utf(di)))
            attributes(p, code_attr)
            m.lines.sort()
        return attributes(pos, handle)

    pos = members(pos, on_field)
    pos = members(pos, on_method)

    def class_attr(aname, apos, alen):
        if aname == "SourceFile":
            cf.source_file = utf(struct.unpack_from(">H", data, apos)[0])
        elif aname == "EnclosingMethod":
            ci, mi = struct.unpack_from(">HH", data, apos)
            if mi:
                n, d = cp[mi][1]
                cf.enclosing = (cls_name(ci), utf(n), utf(d))
            else:
                cf.enclosing = (cls_name(ci), None, None)
        elif aname == "InnerClasses":
            (k,) = struct.unpack_from(">H", data, apos)
            for j in range(k):
                inner, outer, nm, _ = struct.unpack_from(">HHHH", data, apos + 2 + 8 * j)
                cf.inner[cls_name(inner)] = (cls_name(outer) or None, utf(nm) if nm else None)
        elif aname == "SourceDebugExtension":
            cf.smap = _mutf8(data[apos:apos + alen])
        elif aname == "RuntimeVisibleAnnotations":
            cf.kotlin_kind = _kotlin_kind(data, apos, utf, cp)
    attributes(pos, class_attr)
    return cf


# Opcodes whose operand is a constant-pool index of a field, method or class.
_CONST_OPS = {0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBB, 0xBD, 0xC0, 0xC1, 0xC5}
# Loads and stores with a one-byte local slot.
_SLOT_OPS = set(range(0x15, 0x1A)) | set(range(0x36, 0x3B))


def _scan_code(data, start, length, m, member_ref, const):
    pc = 0
    while pc < length:
        op = data[start + pc]
        operand = None
        if op in _CONST_OPS:
            (idx,) = struct.unpack_from(">H", data, start + pc + 1)
            operand = const(idx)
        elif op in _SLOT_OPS:
            operand = data[start + pc + 1]
        elif 0x1A <= op <= 0x2D:  # xload_n
            operand = (op - 0x1A) % 4
        elif 0x3B <= op <= 0x4E:  # xstore_n
            operand = (op - 0x3B) % 4
        elif 0x99 <= op <= 0xA8 or op in (0xC6, 0xC7):
            operand = pc + struct.unpack_from(">h", data, start + pc + 1)[0]  # the target
            m.targets.add(operand)
        elif op in (0xC8, 0xC9):
            operand = pc + struct.unpack_from(">i", data, start + pc + 1)[0]
            m.targets.add(operand)
        if op in INVOKES:
            _, owner, name, desc = operand
            m.invokes.append((pc, INVOKES[op], owner, name, desc))
        m.code.append((pc, op, operand))
        size = _LEN[op]
        if size == 0:
            if op == 0xC4:  # wide
                size = 6 if data[start + pc + 1] == 0x84 else 4
                m.code[-1] = (pc, data[start + pc + 1], struct.unpack_from(">H", data, start + pc + 2)[0])
            else:
                p = pc + 1 + ((4 - (pc + 1) % 4) % 4)
                (default,) = struct.unpack_from(">i", data, start + p)
                m.targets.add(pc + default)
                if op == 0xAA:  # tableswitch
                    low, high = struct.unpack_from(">ii", data, start + p + 4)
                    for j in range(high - low + 1):
                        m.targets.add(pc + struct.unpack_from(">i", data, start + p + 12 + 4 * j)[0])
                    size = p + 12 + 4 * (high - low + 1) - pc
                else:  # lookupswitch
                    (npairs,) = struct.unpack_from(">i", data, start + p + 4)
                    for j in range(npairs):
                        m.targets.add(pc + struct.unpack_from(">i", data, start + p + 12 + 8 * j)[0])
                    size = p + 8 + 8 * npairs - pc
        pc += size


def _kotlin_kind(data, pos, utf, cp):
    """The `k` element of a kotlin.Metadata annotation, 0 when absent."""
    (n,) = struct.unpack_from(">H", data, pos)
    pos += 2
    found = 0
    for _ in range(n):
        ti, pairs = struct.unpack_from(">HH", data, pos)
        pos += 4
        meta = utf(ti) == "Lkotlin/Metadata;"
        for _ in range(pairs):
            (ni,) = struct.unpack_from(">H", data, pos)
            pos += 2
            if meta and utf(ni) == "k" and chr(data[pos]) == "I":
                found = cp[struct.unpack_from(">H", data, pos + 1)[0]][1]
            pos = _skip_element(data, pos)
    return found


def _skip_element(data, pos):
    tag = chr(data[pos])
    pos += 1
    if tag in "BCDFIJSZsc":
        return pos + 2
    if tag == "e":
        return pos + 4
    if tag == "@":
        (pairs,) = struct.unpack_from(">H", data, pos + 2)
        pos += 4
        for _ in range(pairs):
            pos = _skip_element(data, pos + 2)
        return pos
    if tag == "[":
        (k,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(k):
            pos = _skip_element(data, pos)
        return pos
    raise ValueError(f"annotation element tag {tag}")


def params(desc):
    """The parameter descriptors of a method descriptor."""
    out, i = [], 1
    while desc[i] != ")":
        j = i
        while desc[j] == "[":
            j += 1
        if desc[j] == "L":
            j = desc.index(";", j)
        out.append(desc[i:j + 1])
        i = j + 1
    return out


def with_params(ps, desc):
    return "(" + "".join(ps) + desc[desc.index(")"):]
