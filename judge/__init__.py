"""tensor-judge: an offline, sandboxed judge for tensor practice problems.

    from judge import check, problems
    problems()                       # every problem, with your status
    check("patchify", patchify)      # judge a function defined in a notebook

Attributes load on first use (PEP 562), so `import judge` and the `judge list`
and `judge show` commands never pay for importing torch or the sandbox.
"""
from __future__ import annotations

_LAZY = {
    "check": ("judge.notebook", "check"),
    "problem": ("judge.problem", None),  # the module itself, callable: judge.problem("patchify")
    "problems": ("judge.notebook", "problems"),
    "CheckResult": ("judge.notebook", "CheckResult"),
    "Judge": ("judge.session", "Judge"),
    "Report": ("judge.report", "Report"),
    "Verdict": ("judge.verdict", "Verdict"),
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> object:  # no typing import: the warm client starts here
    if name not in _LAZY:
        raise AttributeError(f"module 'judge' has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    loaded = importlib.import_module(module)
    return loaded if attribute is None else getattr(loaded, attribute)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
