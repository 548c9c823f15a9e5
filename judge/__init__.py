"""tensor-judge: an offline, sandboxed judge for tensor practice problems.

    from judge import check, practice, problems
    problems()                       # every problem, with your status
    check("patchify", patchify)      # judge a function defined in a notebook
    q = practice("patchify")         # one problem to work on: q.show(), q.check(fn), q.hint()

Attributes load on first use (PEP 562), so `import judge` and the `judge list`
and `judge show` commands never pay for importing torch or the sandbox.
"""
from __future__ import annotations

import sys

from judge.base.lazy import attributes

_LAZY = {
    "check": "judge.notebook",
    "practice": "judge.notebook",  # not `problem`: judge.model is the problem model
    "problems": "judge.notebook",
    "CheckResult": "judge.notebook",
    "Judge": "judge.judging.session",
    "Submission": "judge.base.submission",
    "Tutor": "judge.learner.tutor",
    "Report": "judge.base.report",
    "Verdict": "judge.base.outcomes",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = attributes("judge", _LAZY)
del attributes  # the loader, not a name this package offers

# The public API's modules as they were named before the packages, still importable (`from
# judge.session import Judge`): each name is the module where that code lives now, loaded on first use.
MOVED = {
    "judge.session": "judge.judging.session",
    "judge.contract": "judge.runs.contract",
    "judge.submission": "judge.base.submission",
    "judge.tutor": "judge.learner.tutor",
    "judge.report": "judge.base.report",
    "judge.verdict": "judge.base.outcomes",
    "judge.problem": "judge.model.problem",
    "judge.entry": "judge.__main__",   # the `judge` script of an install made before the packages
}


class _Moved:
    """A finder and loader for `MOVED`: the old name is bound to the module itself, not a copy."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> object:
        if name not in MOVED:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, _Moved)

    @staticmethod
    def create_module(spec: object) -> object:
        import importlib

        return importlib.import_module(MOVED[spec.name])

    @staticmethod
    def exec_module(module: object) -> None:
        pass


if _Moved not in sys.meta_path:
    sys.meta_path.append(_Moved)
