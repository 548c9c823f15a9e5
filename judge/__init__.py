"""tensor-judge: an offline, sandboxed judge for tensor practice problems.

    from judge import check, practice, problems
    problems()                       # every problem, with your status
    check("patchify", patchify)      # judge a function defined in a notebook
    q = practice("patchify")         # one problem to work on: q.show(), q.check(fn), q.hint()

Attributes load on first use (PEP 562), so `import judge` and the `judge list`
and `judge show` commands never pay for importing torch or the sandbox.
"""
from __future__ import annotations

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
