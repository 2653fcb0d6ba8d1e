"""The type stubs mirror the native module: every function, class and method in one is in the
other."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import ssdgc
from ssdgc import _native

STUB = Path(ssdgc.__file__).with_name("_native.pyi")


def test_stub_names_match_the_native_module():
    tree = ast.parse(STUB.read_text())
    stub_funcs, stub_classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            stub_funcs.add(node.name)
        elif isinstance(node, ast.ClassDef):
            stub_classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    native_funcs = {n for n, v in vars(_native).items() if inspect.isbuiltin(v) and not n.startswith("_")}
    native_classes = {n for n, v in vars(_native).items() if isinstance(v, type)}
    assert stub_funcs == native_funcs
    assert set(stub_classes) == native_classes
    for name, methods in stub_classes.items():
        cls = getattr(_native, name)
        have = {m for m in dir(cls) if not m.startswith("_")}
        assert methods - {"__init__"} <= have | {"scheme"}, name
        assert have <= methods | set(dir(ValueError)), name
