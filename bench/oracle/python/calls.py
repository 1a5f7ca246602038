"""Call sites of one file, each with the node it belongs to.

A call belongs to the innermost enclosing def (nested defs included; a lambda
is no node, so its calls belong to the def around it); a call in a class body
outside its methods belongs to the class; a call at module level belongs to
the file. Decorators, default values, annotations and class bases are
evaluated in the scope around the def or class, so they belong there.
"""

import ast
from dataclasses import dataclass


@dataclass
class CallSite:
    node: ast.Call
    caller: tuple          # definition key, or None for the file
    line: int              # line of the call expression
    target: tuple          # (line, byte column) of the name to resolve, or None
    shape: str             # "name", "attr", "super-attr" or the callee's node type


def _target(func):
    if isinstance(func, ast.Name):
        return (func.lineno, func.col_offset), "name"
    if isinstance(func, ast.Attribute):
        col = func.end_col_offset - len(func.attr.encode("utf-8"))
        shape = "attr"
        v = func.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super":
            shape = "super-attr"
        return (func.end_lineno, col), shape
    return None, type(func).__name__


def call_sites(tree, index):
    """Yields the CallSites of a parsed file; index maps def nodes to keys."""
    out = []

    def visit(node, scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                visit(d, scope)
            a = node.args
            for x in a.defaults + [k for k in a.kw_defaults if k is not None]:
                visit(x, scope)
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None and arg.annotation is not None:
                    visit(arg.annotation, scope)
            if node.returns is not None:
                visit(node.returns, scope)
            inner = index.by_node.get(id(node), scope)
            for stmt in node.body:
                visit(stmt, inner)
            return
        if isinstance(node, ast.ClassDef):
            for x in node.decorator_list + node.bases + [k.value for k in node.keywords]:
                visit(x, scope)
            inner = index.by_node.get(id(node), scope)
            for stmt in node.body:
                visit(stmt, inner)
            return
        if isinstance(node, ast.Call):
            target, shape = _target(node.func)
            out.append(CallSite(node, scope, node.lineno, target, shape))
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    for stmt in tree.body:
        visit(stmt, None)
    return out
