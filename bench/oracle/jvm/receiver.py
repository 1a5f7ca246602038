"""The static type of a value on the operand stack at a call, found by
walking back over straight-line code to the instruction that pushed it.

Used where the compiler's own call does not keep the receiver's type: a
Kotlin call that leaves out default arguments compiles to a static
`C.f$default(receiver, ...)` in the class declaring `f`, whatever the
receiver's type. Values are counted, not slots, so longs and doubles
need nothing special; gives up (None) at a jump target, at `dup_x1`,
`dup2`, `pop2`, `swap` and at the other instructions it does not model.
"""

import classfile as cfr

# Values (not slots) each opcode pops and pushes; None = not modelled.
_EFFECT = {}
for op in range(0x01, 0x15):
    _EFFECT[op] = (0, 1)          # constants, bipush, sipush, ldc
for op in list(range(0x15, 0x1A)) + list(range(0x1A, 0x2E)):
    _EFFECT[op] = (0, 1)          # loads
for op in range(0x2E, 0x36):
    _EFFECT[op] = (2, 1)          # array loads
for op in list(range(0x36, 0x3B)) + list(range(0x3B, 0x4F)):
    _EFFECT[op] = (1, 0)          # stores
for op in range(0x4F, 0x57):
    _EFFECT[op] = (3, 0)          # array stores
_EFFECT[0x57] = (1, 0)            # pop
for op in range(0x60, 0x74):
    _EFFECT[op] = (2, 1)          # add, sub, mul, div, rem
for op in range(0x74, 0x78):
    _EFFECT[op] = (1, 1)          # neg
for op in range(0x78, 0x84):
    _EFFECT[op] = (2, 1)          # shifts, and, or, xor
_EFFECT[0x84] = (0, 0)            # iinc
for op in range(0x85, 0x94):
    _EFFECT[op] = (1, 1)          # conversions
for op in range(0x94, 0x99):
    _EFFECT[op] = (2, 1)          # comparisons
for op in range(0x99, 0x9F):
    _EFFECT[op] = (1, 0)          # if<cond>
for op in range(0x9F, 0xA7):
    _EFFECT[op] = (2, 0)          # if_icmp, if_acmp
_EFFECT.update({0xB2: (0, 1), 0xB3: (1, 0), 0xB4: (1, 1), 0xB5: (2, 0), 0xBB: (0, 1), 0xBC: (1, 1),
                0xBD: (1, 1), 0xBE: (1, 1), 0xC0: (1, 1), 0xC1: (1, 1), 0xC2: (1, 0), 0xC3: (1, 0),
                0xC6: (1, 0), 0xC7: (1, 0)})


def _value_type(m, i):
    """The type an instruction pushes: a class name, or None."""
    pc, op, operand = m.code[i]
    if op in (0xB2, 0xB4):        # getstatic, getfield
        return _class_of(operand[3])
    if op in (0xB6, 0xB7, 0xB8, 0xB9):
        return _class_of(operand[3][operand[3].index(")") + 1:])
    if op in (0xBB, 0xC0):        # new, checkcast
        return operand if operand and not operand.startswith("[") else None
    if op == 0x19 or 0x2A <= op <= 0x2D:   # aload, aload_n
        slot = operand
        next_pc = m.code[i + 1][0] if i + 1 < len(m.code) else pc + 1
        for start, length, s, desc in m.locals:
            if s == slot and start <= next_pc <= start + length:
                return _class_of(desc)
        if slot == 0 and not m.flags & cfr.ACC_STATIC:
            return m.cls.name
    return None


def _class_of(desc):
    return desc[1:-1] if desc.startswith("L") else None


def _effect(op, operand):
    if op in (0xB6, 0xB7, 0xB8, 0xB9):
        _, _, name, desc = operand
        ps = cfr.params(desc)
        return (len(ps) + (0 if op == 0xB8 else 1), 0 if desc.endswith(")V") else 1)
    return _EFFECT.get(op)


def receiver_type(m, pc, above):
    """The class of the value with `above` values over it on the stack just
    before the instruction at pc, or None."""
    index = next((i for i, ins in enumerate(m.code) if ins[0] == pc), None)
    if index is None:
        return None
    k = above  # values above the one sought
    for i in range(index - 1, -1, -1):
        ipc, op, operand = m.code[i]
        if op == 0x59:            # dup: [v] -> [v, v]
            if k <= 1:
                k = 0
            else:
                k -= 1
        else:
            eff = _effect(op, operand)
            if eff is None:
                return None
            pops, pushes = eff
            if k < pushes:
                return _value_type(m, i) if pushes == 1 else None
            k = k - pushes + pops
        if ipc in m.targets:
            return None  # other paths reach here: their stacks are not seen
    return None
