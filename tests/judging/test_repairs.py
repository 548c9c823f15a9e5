"""judge/judging/repairs.py: one or two changes to the learner's own file after which every value is right."""
from __future__ import annotations

from judge.judging.mutants import Context
from judge.judging.repairs import joined, repairs_of, unparsed
from judge.base.submission import Submission

LEARNER = '''
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    idx = np.arange(len(s))
    return float((lse + s[idx, idx ^ 1]).sum())
'''
CONTEXT = Context("numpy", (), "contrastive_loss")


def test_a_repair_says_the_learners_line_their_code_and_the_slip():
    found = repairs_of(LEARNER, CONTEXT, ("embeddings", "temperature"))
    assert not any("raise" in r.before for r in found)     # guards are judged by the raises checks
    to_mean = next(r for r in found if r.after.endswith(".mean()") and r.line == 14)
    assert to_mean.slip == "`sum` where `mean` belongs"       # what the learner's code does wrong
    assert to_mean.message().startswith("line 14: `sum` where `mean` belongs: with `(lse + s[idx, idx ^ 1]).mean()` "
                                        "in place of `(lse + s[idx, idx ^ 1]).sum()`")


def test_two_repairs_on_one_line_make_one_file():
    found = repairs_of(LEARNER, CONTEXT, ("embeddings", "temperature"))
    to_mean = next(r for r in found if r.after.endswith(".mean()") and r.line == 14)
    minus = next(r for r in found if r.after == "lse - s[idx, idx ^ 1]")
    both = joined(unparsed(LEARNER), to_mean, minus, 999)
    assert both is not None and "(lse - s[idx, idx ^ 1]).mean()" in both.source and both.with_ is to_mean
    assert "with this and the change at line 14" in minus.message(to_mean)


def test_two_slips_in_the_learners_file_are_both_named_on_their_line(judge):
    report = judge.submit("info_nce", Submission.from_text(LEARNER, "two.py"), record=False)
    said = [m.message for m in report.first_failure.mistakes]
    assert len(said) == 2 and all(m.startswith("line 14: ") for m in said), said
    assert {"`sum` where `mean` belongs", "a term added where it is subtracted"} == {m.split(": ")[1] for m in said}
