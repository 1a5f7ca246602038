"""Resolution of one call site to the repository definitions it calls,
by asking jedi where the callee name is defined."""

import os

import jedi
import jedi.plugins.pytest as jedi_pytest


def _list_pytest_modules(cached):
    """jedi memoizes the generator of a module's conftest modules, so only
    the first fixture lookup in a script sees them; this memoizes a list."""
    def modules(module_context, skip_own_module=False):
        memo = module_context.inference_state.memoize_cache.setdefault("oracle:pytest-modules", {})
        key = (module_context, skip_own_module)
        if key not in memo:
            memo[key] = []
            memo[key] = list(cached(module_context, skip_own_module=skip_own_module))
        return iter(memo[key])
    return modules


jedi_pytest._iter_pytest_modules = _list_pytest_modules(jedi_pytest._iter_pytest_modules)


class Resolver:
    def __init__(self, root, index, sys_path):
        self.root = os.path.realpath(root)
        self.index = index
        self.project = jedi.Project(self.root, sys_path=sys_path, smart_sys_path=False)
        self.external_modules = {}  # module name of external callees -> count

    def script(self, rel, source):
        return jedi.Script(source, path=os.path.join(self.root, rel), project=self.project)

    def key_of(self, name):
        """The index key of a jedi definition name, or None when it lies
        outside the repository or is no node of the graph."""
        path = name.module_path
        if path is None or name.line is None:
            return None
        path = os.path.realpath(str(path))
        if not path.startswith(self.root + os.sep):
            return None
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        key = (rel, name.line, name.name)
        return key if key in self.index.defs else None

    def in_repo(self, name):
        path = name.module_path
        inside = path is not None and os.path.realpath(str(path)).startswith(self.root + os.sep)
        if not inside:
            mod = (name.module_name or "?").split(".")[0]
            self.external_modules[mod] = self.external_modules.get(mod, 0) + 1
        return inside

    def resolve(self, script, line, col):
        """Returns (targets, status). targets: list of (callee key, how) where
        how is "call", "ctor" (a class was called) or "call-instance" (an
        instance's __call__). status tells why targets is empty:
        "external", "unresolved", "property", "not-a-node"."""
        names = _safe(script.goto, line, col, follow_imports=True)
        found, status = [], "unresolved"
        need_infer = not names
        for n in names:
            if n.type in ("function", "class"):
                k = self.key_of(n)
                if k is not None:
                    found.append((k, "goto"))
                else:
                    status = "not-a-node" if self.in_repo(n) else "external"
            else:
                need_infer = True
        if not found and need_infer:
            for n in _safe(script.infer, line, col):
                if n.type in ("function", "class"):
                    k = self.key_of(n)
                    if k is not None:
                        found.append((k, "infer"))
                    else:
                        status = "not-a-node" if self.in_repo(n) else "external"
                elif n.type == "instance":
                    k = self.key_of(n)
                    if k is not None and self.index.defs[k].kind == "class":
                        m = self.index.find_method(k, "__call__")
                        if m is not None:
                            found.append((m, "call-instance"))
                            continue
                    status = "external" if not self.in_repo(n) else "not-a-node"
                else:
                    status = "external" if not self.in_repo(n) else "not-a-node"
        targets = []
        for k, via in found:
            d = self.index.defs[k]
            if via == "call-instance":
                targets.append((k, via))
            elif d.kind == "class":
                init = self.index.find_method(k, "__init__")
                targets.append((init if init is not None else k, "ctor"))
            elif d.is_property:
                status = "property"
            else:
                impl = self.index.implementation(k)
                if impl is not None:
                    targets.append((impl, "call"))
        return list(dict.fromkeys(targets)), status

    def names_class(self, script, line, col):
        """Reports whether the name at (line, col) denotes a class (a
        receiver that makes a method call non-virtual)."""
        names = _safe(script.goto, line, col, follow_imports=True)
        return bool(names) and all(n.type == "class" for n in names)

    def receiver_classes(self, script, line, col, called=False):
        """The repository classes of the instances the receiver at (line, col)
        may hold, or None when jedi infers nothing or something else. With
        called, the receiver is a call of the name at (line, col): a class
        called gives its instances, a function its return values."""
        values = _safe(script.infer, line, col)
        if called:
            returned = []
            for n in values:
                if n.type == "class":
                    k = self.key_of(n)
                    if k is None:
                        return None
                    returned.append(("class", k))
                elif n.type == "function":
                    returned.extend(("value", r) for r in _safe(n.execute))
                else:
                    return None
            keys = [v for kind, v in returned if kind == "class"]
            values = [v for kind, v in returned if kind == "value"]
            if not values:
                return list(dict.fromkeys(keys)) or None
        else:
            keys = []
        for n in values:
            k = self.key_of(n) if n.type == "instance" else None
            if k is None or self.index.defs[k].kind != "class":
                return None
            keys.append(k)
        return list(dict.fromkeys(keys)) or None

    def class_bases(self, script, exprs_positions):
        out = []
        for line, col in exprs_positions:
            names = _safe(script.goto, line, col, follow_imports=True)
            keys = [self.key_of(n) for n in names if n.type == "class"]
            if not keys:
                keys = [self.key_of(n) for n in _safe(script.infer, line, col) if n.type == "class"]
            out.extend(k for k in keys if k is not None)
        return out


def _safe(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except Exception:  # jedi fails on some inputs; such a site counts as unresolved
        return []
