"""Package attributes that load on first use (PEP 562), for packages whose import must stay light.

`judge`, `judge.sandbox` and `judge.render` name what they offer in a table and import the module
behind a name only when it is first read: `import judge` never pays for torch, and
`judge.sandbox.launch` starts the fork server before the judge imports numpy.
"""
from __future__ import annotations

import importlib


def attributes(package: str, table: dict[str, str]):
    """`__getattr__` and `__dir__` for `package`: each name in `table` is the attribute of that
    name in the module it maps to."""
    def __getattr__(name: str) -> object:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(table[name])
        return getattr(module, name)

    def __dir__() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | set(table))

    return __getattr__, __dir__
