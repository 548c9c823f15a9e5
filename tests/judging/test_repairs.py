"""judge/judging/repairs.py: one or two changes to the learner's own file after which every value is right."""
from __future__ import annotations

from pathlib import Path

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
REPO = Path(__file__).resolve().parents[2]


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


def _slipped(path: str, *changes: tuple[str, str]) -> str:
    """A known file with each (code, replacement) made once: a learner's file with those slips."""
    source = (REPO / path).read_text(encoding="utf-8")
    for before, after in changes:
        assert source.count(before) == 1, before
        source = source.replace(before, after)
    return source


def _said(judge, problem: str, source: str) -> list:
    """The mistakes named on the first failing test of `source` judged on `problem`."""
    report = judge.submit(problem, Submission.from_text(source, f"{problem}.py"), record=False)
    return list(report.first_failure.mistakes)


def test_two_slips_whose_fixes_each_move_the_value_away_are_both_named(judge):
    # The learner's predictions are all wrong, so the accuracy is 0 whatever it is scaled by: fixing the scale
    # alone changes nothing, and fixing the predictions alone makes the accuracy 2.0 where 0.5 is due, further
    # from it than 0.0. Each fix is still progress in its own way (numbers made right), and the two are found.
    source = _slipped("submissions/linear_probe/accepted/augmented_lstsq.py",
                      ("(test_features - mean) / std", "(test_features + mean) / std"),
                      ("/ len(test_labels)}", "* len(test_labels)}"))
    said = [m.message for m in _said(judge, "linear_probe", source)]
    lines = [next(n for n, text in enumerate(source.splitlines(), 1) if slip in text)
             for slip in ("(test_features + mean) / std", "* len(test_labels)}")]
    assert [m.split(":")[0] for m in said] == [f"line {n}" for n in lines], said
    assert "`test_features - mean` in place of `test_features + mean`" in said[0]
    assert "`/` " not in said[1] and "/ len(test_labels)` in place of" in said[1]


def test_two_slips_that_leave_the_shape_wrong_are_both_named(judge):
    # Neither fix alone gives the expected shape; each brings one of its sizes or its layout nearer.
    source = _slipped("submissions/patchify/accepted/unfold.py",
                      ("torch.arange(gh * gw)", "torch.arange(gh / gw)"),
                      ("n % gw], dim=1)", "n % gw], dim=0)"))
    said = [m.message for m in _said(judge, "patchify", source)]
    assert sorted(m.split(":")[0] for m in said) == ["line 16", "line 17"], said
    assert any("`stack` along the wrong axis" in m for m in said)


def test_a_change_that_makes_every_value_right_stands_beside_the_relation_it_explains(judge):
    # The values are right to float32 precision on every failing test (a fact the judge names first); the cast
    # that makes them so is found on the learner's line.
    mistakes = _said(judge, "vit_pool", _slipped("submissions/vit_pool/wrong_answer/float32_mean.py"))
    assert mistakes[0].name == "float32_values"
    assert mistakes[1].message.startswith("line 13: a cast to float32 where float64 belongs: with `x[:, 1:].double()` "
                                          "in place of `x[:, 1:].float()`"), mistakes


LOOPED = '''
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    rows = [r / max(float(np.sqrt(r @ r)), 1e-12) for r in np.asarray(embeddings, dtype=np.float64)]
    total = 0.0
    for i, row in enumerate(rows):
        others = [k for k in range(len(rows)) if k != i]
        logits = np.array([float(row @ rows[k]) // temperature for k in others])
        top = logits.max()
        lse = top + np.log(np.exp(logits - top).sum())
        total += lse - float(row @ rows[i ^ 1]) / temperature
    return total
'''


def test_a_change_beside_a_known_mistake_that_no_change_undoes(judge):
    # Two slips: a floor division (a change undoes it) and the mean over the anchors left out (no change adds
    # it). With the division repaired the file gives what the known mistake `sum_not_mean` gives, on every test.
    said = _said(judge, "info_nce", LOOPED)
    assert [m.name for m in said] == ["repair_floor_division_where_true_division_belongs", "sum_not_mean"], said
    assert said[0].message.startswith("line 12: floor division `//` where true division `/` belongs: "
                                      "`float(row @ rows[k]) / temperature` in place of")
    assert said[0].message.endswith("with this change, your file gives what the other mistake named here gives "
                                    "alone, on every test where it returns a value")


def test_a_repair_may_swap_any_two_axes_of_a_permute_and_normalise_the_rows_of_an_argument():
    source = '''import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("tokens must be 3-D")
    x = tokens.reshape(1, 2, 2, 1, 2, 2)
    return x.permute(0, 3, 2, 4, 1, 5).reshape(1, 1, 4, 4)
'''
    made = repairs_of(source, Context(framework="torch", entry_point="unpatchify"),
                      ("tokens", "height", "width", "patch_height", "patch_width"), ("tokens",))
    # Axes 2 and 4 stand apart: the gate swaps neighbours only, a repair any two.
    far = [r for r in made if r.after == "x.permute(0, 3, 1, 4, 2, 5)"]
    assert far and far[0].slip == "`permute` with two of its axes in the wrong order" and far[0].line == 8
    [normalised] = [r for r in made if not r.before]
    assert normalised.after == "tokens = F.normalize(tokens, dim=-1)" and normalised.line == 7   # after the check
    assert normalised.slip == "the rows of `tokens` are not normalised"
    assert "import torch.nn.functional as F" in normalised.source
    assert normalised.message().startswith("line 7: the rows of `tokens` are not normalised: with "
                                           "`tokens = F.normalize(tokens, dim=-1)` first, your file gives")
