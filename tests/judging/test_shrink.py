"""judge/judging/shrink.py: the smallest input that shows a wrong value, and what of a hidden test it may show."""
from __future__ import annotations

import numpy as np

from judge.model import generators
from judge.model.problem import TestSpec as Spec
from judge.render import render_text
from judge.judging.shrink import _moves
from judge.base.submission import Submission
from judge.base.encoding import Array

SUM_NOT_MEAN = '''
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
    return float((lse - s[idx, idx ^ 1]).sum())
'''

# Right on up to 6 rows (every public example), a little off beyond: only hidden tests fail.
OFF_ON_MANY_ROWS = SUM_NOT_MEAN.replace("return float((lse - s[idx, idx ^ 1]).sum())",
                                        "return float((lse - s[idx, idx ^ 1]).mean()) * (1.01 if len(s) > 6 else 1.0)")

PLAIN_EXP = '''
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    idx = np.arange(len(s))
    e = np.exp(s)
    return float(np.mean(np.log(e.sum(axis=1) - e[idx, idx]) - s[idx, idx ^ 1]))
'''


def _rows(shown) -> int:
    return next(v for name, _, v in shown.inputs if name == "embeddings").data.shape[0]


def test_a_public_examples_input_is_shrunk_and_shown_side_by_side(judge):
    report = judge.submit("info_nce", Submission.from_text(SUM_NOT_MEAN, "sum.py"), record=False)
    first = report.first_failure
    assert first.group == "example" and first.smallest is not None
    example = next(v for name, _, v in first.shown.inputs if name == "embeddings").data.size
    assert next(v for name, _, v in first.smallest.inputs if name == "embeddings").data.size < example
    assert first.smallest.expected != first.smallest.actual
    text = render_text(report)
    assert "the smallest input found from this example on which yours differs:" in text
    assert first.to_json()["smallest"].lstrip().startswith("inputs:")
    assert sum(t.smallest is not None for t in report.tests) == 1  # the first wrong value only


def test_a_hidden_test_shows_a_fresh_input_never_its_own(judge):
    report = judge.submit("info_nce", Submission.from_text(OFF_ON_MANY_ROWS, "many.py"), record=False)
    first = report.first_failure
    assert first.group == "hidden" and first.smallest is not None, first.text
    shown = first.smallest
    assert _rows(shown) > 6                                    # it still shows the difference
    hidden = [c for c in judge.prepared("info_nce").cases if not c.test.public]
    for case in hidden:                                        # none of the hidden inputs
        for (_, _, value), own in zip(shown.inputs, case.args):
            assert not (isinstance(value, Array) and isinstance(own, Array) and value.data.shape == own.data.shape
                        and np.array_equal(value.data, own.data))
    assert all(spec is None for _, spec, _ in shown.inputs)   # no hidden generator is shown either
    text = render_text(report)
    assert "a fresh input drawn like this test's (its own stays hidden)" in text


def test_a_hidden_tests_own_values_are_not_shown_even_when_only_they_show_the_mistake(judge):
    """A plain exp overflows only at the hidden tests' tiny temperature; the fresh input takes the public
    example's temperature instead, shows no difference, and nothing is shown."""
    report = judge.submit("info_nce", Submission.from_text(PLAIN_EXP, "exp.py"), record=False)
    assert not report.accepted
    assert all(t.smallest is None for t in report.tests)
    assert "0.001" not in render_text(report)


def test_moves_shrink_one_size_everywhere_it_recurs_and_one_more_where_it_recurs_plus_one():
    tokens = generators.Spec("normal", {"shape": [2, 6, 4]})
    positions = generators.Spec("normal", {"shape": [1, 7, 4]})
    test = Spec(name="t", group="hidden", inputs={"tokens": tokens, "pos": positions}, checks=(), tolerance=None)
    shapes = [(m.inputs["tokens"].params["shape"], m.inputs["pos"].params["shape"]) for m in _moves(test, ("tokens", "pos"))]
    assert ([2, 3, 4], [1, 4, 4]) in shapes and ([2, 1, 4], [1, 2, 4]) in shapes
    assert ([2, 6, 2], [1, 7, 2]) in shapes
    simpler = _moves(test, ("tokens", "pos"))[0].inputs["tokens"]
    assert simpler.kind == "randint" and simpler.dtype == "float32"  # small integers, still floats
