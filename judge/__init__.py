"""tensor-judge: an offline, sandboxed judge for tensor practice problems.

    from judge import check, problems
    problems()                       # every problem, with your status
    check("patchify", patchify)      # judge a function defined in a notebook

Attributes load on first use (PEP 562), so `import judge` and the `judge list`
and `judge show` commands never pay for importing torch or the sandbox.
"""
from __future__ import annotations

from judge.lazy import attributes

_LAZY = {
    "check": "judge.notebook",
    "problem": "judge.problem",  # the module itself, callable: judge.problem("patchify")
    "problems": "judge.notebook",
    "CheckResult": "judge.notebook",
    "Judge": "judge.session",
    "Submission": "judge.submission",
    "Tutor": "judge.tutor",
    "Report": "judge.report",
    "Verdict": "judge.verdict",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = attributes("judge", _LAZY, modules=frozenset({"problem"}))
del attributes  # the loader, not a name this package offers
