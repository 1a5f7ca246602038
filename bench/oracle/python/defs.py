"""The definitions of a repository: every def and class, keyed the way the
oracle writes them (file, line of the name, simple name), with what the
call-graph rules need to know about each (owning class, decorators)."""

import ast
from dataclasses import dataclass, field


@dataclass
class Definition:
    file: str
    line: int
    name: str
    kind: str                     # "function" or "class"
    qual: str                     # dotted path inside the file
    owner: tuple = None           # key of the class whose body defines this method
    decorators: tuple = ()        # last dotted segment of each decorator
    node: ast.AST = None
    methods: dict = field(default_factory=dict)  # class: name -> [keys], in order

    @property
    def key(self):
        return (self.file, self.line, self.name)

    def has(self, deco):
        return deco in self.decorators

    @property
    def is_property(self):
        return any(d in ("property", "cached_property", "setter", "getter", "deleter")
                   for d in self.decorators)


def _decorator_name(expr):
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


def _class_body_defs(body):
    """Defs and classes bound in a class body, looking through if/try/with
    blocks but not into nested scopes."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield stmt
        elif isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor)):
            yield from _class_body_defs(stmt.body)
            yield from _class_body_defs(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _class_body_defs(stmt.body)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            yield from _class_body_defs(stmt.body)
            for h in stmt.handlers:
                yield from _class_body_defs(h.body)
            yield from _class_body_defs(stmt.orelse)
            yield from _class_body_defs(stmt.finalbody)


class Index:
    """All definitions of the repository."""

    def __init__(self):
        self.defs = {}            # key -> Definition
        self.by_node = {}         # id(ast node) -> key
        self.bases = {}           # class key -> [class keys] (repository bases, in order)
        self.subclasses = {}      # class key -> [class keys]

    def add_file(self, rel, tree):
        self._walk(rel, tree.body, "", None)

    def _walk(self, rel, body, prefix, owner):
        # owner: key of the class whose body this is, else None.
        stack = [(body, prefix, owner)]
        while stack:
            stmts, pre, own = stack.pop()
            for node in self._scope_defs(stmts, own is not None):
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                d = Definition(
                    file=rel, line=node.lineno, name=node.name, kind=kind,
                    qual=pre + node.name, owner=own,
                    decorators=tuple(_decorator_name(x) for x in node.decorator_list),
                    node=node,
                )
                self.defs[d.key] = d
                self.by_node[id(node)] = d.key
                if own is not None and kind == "function":
                    self.defs[own].methods.setdefault(node.name, []).append(d.key)
                stack.append((node.body, d.qual + ".", d.key if kind == "class" else None))

    @staticmethod
    def _scope_defs(stmts, in_class):
        """Defs and classes directly inside a scope body (through compound
        statements, not through nested defs, classes or lambdas)."""
        if in_class:
            yield from _class_body_defs(stmts)
            return
        todo = list(stmts)
        while todo:
            node = todo.pop(0)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield node
                continue
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
                    todo.append(child)

    def link(self, base_of):
        """Records class bases; base_of(class Definition) -> [class keys]."""
        for key, d in self.defs.items():
            if d.kind != "class":
                continue
            bases = [b for b in base_of(d) if b in self.defs and b != key]
            self.bases[key] = list(dict.fromkeys(bases))
            for b in self.bases[key]:
                self.subclasses.setdefault(b, []).append(key)

    def mro(self, key):
        """C3 linearization over repository classes; a depth-first order when
        the bases admit none."""
        memo = {}

        def lin(k, seen):
            if k in memo:
                return memo[k]
            if k in seen:
                return [k]
            seen = seen | {k}
            seqs = [lin(b, seen) for b in self.bases.get(k, [])] + [list(self.bases.get(k, []))]
            seqs = [list(s) for s in seqs if s]
            out = [k]
            while seqs:
                for s in seqs:
                    head = s[0]
                    if not any(head in t[1:] for t in seqs):
                        break
                else:
                    rest = []
                    for s in seqs:
                        for x in s:
                            if x not in out and x not in rest:
                                rest.append(x)
                    out.extend(rest)
                    break
                out.append(head)
                seqs = [[x for x in s if x != head] for s in seqs]
                seqs = [s for s in seqs if s]
            memo[k] = out
            return out

        return lin(key, frozenset())

    def find_method(self, cls_key, name):
        """The method named name that instances of cls_key use: the first
        class in the repository MRO that defines it, else None."""
        for k in self.mro(cls_key):
            ms = self.defs[k].methods.get(name)
            if ms:
                return ms[-1]
        return None

    def all_subclasses(self, key):
        out, todo, seen = [], list(self.subclasses.get(key, [])), {key}
        while todo:
            k = todo.pop(0)
            if k in seen:
                continue
            seen.add(k)
            out.append(k)
            todo.extend(self.subclasses.get(k, []))
        return out

    def implementation(self, key):
        """For a def marked @overload, the implementation bound to the same
        name in the same scope (the last def of that name without
        @overload); otherwise key itself."""
        d = self.defs[key]
        if not d.has("overload"):
            return key
        if not hasattr(self, "_by_qual"):
            self._by_qual = {}
            for k, o in self.defs.items():
                self._by_qual.setdefault((o.file, o.qual), []).append(k)
        same = [k for k in self._by_qual.get((d.file, d.qual), [])
                if self.defs[k].kind == "function" and not self.defs[k].has("overload")]
        return max(same, key=lambda k: k[1]) if same else None
