"""judge/judging/slipwords.py: a slip said in the learner's words, never in the solution's code."""
from __future__ import annotations

import pytest

from judge.judging.mutants import Context, mutants
from judge.judging.slipwords import slug, words

ARGS = ("embeddings", "temperature")


@pytest.mark.parametrize("operator, before, after, said", [
    ("reduce", "x.mean()", "x.sum()", "`sum` where `mean` belongs"),
    ("reduce", "F.cross_entropy(s, y, reduction='mean')", "F.cross_entropy(s, y, reduction='sum')",
     'reduction="sum" where "mean" belongs'),
    ("axis", "s.max(axis=1, keepdims=True)", "s.max(axis=0, keepdims=True)", "`max` along the wrong axis"),
    ("axis", "s.sum(axis=1)", "s.sum()", "`sum` over every entry instead of along one axis"),
    ("axis", "s.mean()", "s.mean(dim=0)", "`mean` along one axis instead of over every entry"),
    ("axis", "n.sum(-1, keepdims=True)", "n.sum(-1)", "`sum` without keepdim, so its result lines up with the wrong axis"),
    ("arithmetic", "z @ z.T / temperature", "z @ z.T * temperature",
     "a multiplication by `temperature` where the division belongs"),
    ("arithmetic", "z @ z.T / float(temperature)", "z @ z.T", "the division by `temperature` left out"),
    ("arithmetic", "e / np.maximum(np.linalg.norm(e, axis=1), 1e-12)", "e", "the division by the norm left out"),
    ("arithmetic", "lse - pos", "lse + pos", "a term added where it is subtracted"),
    ("arithmetic", "lse - pos", "lse", "a subtracted term left out"),
    ("arithmetic", "q @ k.T / math.sqrt(d)", "q @ k.T", "the division by a square root left out"),
    ("arithmetic", "n // gw", "n / gw", "true division `/` where floor division `//` belongs"),
    ("arithmetic", "z @ z.T / temperature", "z @ z.T // temperature", "floor division `//` where true division `/` belongs"),
    ("transpose", "z.T", "z", "a transpose (`.T`) left out"),
    ("transpose", "z.t()", "z", "a transpose (`.t()`) left out"),   # never "a `t` left out": no variable named t
    ("transpose", "x.permute(0, 2, 1)", "x", "a `permute(...)` left out"),
    ("transpose", "x.permute(0, 2, 1)", "x.permute(0, 1, 2)", "`permute` with two of its axes in the wrong order"),
    ("dtype", "np.float64", "np.float32", "float32 where float64 belongs"),
    ("index", "x.shape[0]", "x.shape[1]", "a size read from the wrong axis (`.shape[...]`)"),
    ("index", "x[:, 1:]", "x[:, 2:]", "a slice off by one"),
    ("constant", "1e-12", "1e-11", "a constant ten times too large (1e-11 where 1e-12 belongs)"),
    ("constant", "0.5", "0.05", "a constant ten times too small (0.05 where 0.5 belongs)"),
    ("constant", "0.0", "1.0", "the number 1 where 0 belongs"),
    ("statement", "np.fill_diagonal(s, -np.inf)", "pass", "a step left out: the call to `fill_diagonal`"),
])
def test_a_slip_is_said_with_the_learners_names_only(operator, before, after, said):
    assert words(operator, before, after, ARGS) == said


@pytest.mark.parametrize("operator, before, after", [
    ("arithmetic", "s / my_scale", "s * my_scale"),    # a variable of the solution's own: no words
    ("reduce", "x.helper()", "x.other()"),              # a helper of its own, not the library's
    ("statement", "_check(x)", "pass"),
    ("guard", "if x: raise ValueError", "pass"),      # judged by the raises checks, not by a value
    ("gradient", "x.detach()", "x"),
])
def test_a_slip_that_cannot_be_said_without_the_solutions_code_gets_no_words(operator, before, after):
    assert words(operator, before, after, ARGS) is None


def test_a_branch_decided_by_a_slip_gets_no_words():
    """`std[std == 0] = 1` with 0 made 1 never fires: the effect is a guard that never fires, which
    "the number 1 where 0 belongs" would not say; a condition turned is the same."""
    assert words("constant", "0", "1", ARGS, within="Compare") is None
    assert words("comparison", "n != 2", "n < 2", ARGS, within="If") is None
    assert words("comparison", "s.argmax(1) == labels", "s.argmax(1) != labels", ARGS, within="Call") == \
        "the comparison `!=` where `==` belongs"


def test_a_changed_default_is_said_with_its_name_and_both_values():
    # Said the same for the entry point's signature and a helper's (`layer_norm(x, eps=1e-5)`): "the statement
    # gives" would be wrong for a helper the learner wrote.
    assert words("defaults", "num_positions, dim, base=10000.0", "num_positions, dim, base=100000.0", ARGS) == \
        "the default of `base` taken as 100000.0 where 10000.0 belongs"


def test_every_mutant_of_a_solution_is_said_without_its_code():
    source = '''
import numpy as np

def contrastive_loss(embeddings, temperature):
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    z = embeddings / np.maximum(norms, 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    top = s.max(axis=1, keepdims=True)
    lse = top[:, 0] + np.log(np.exp(s - top).sum(axis=1))
    return float((lse - s[np.arange(len(s)), np.arange(len(s)) ^ 1]).mean())
'''
    said = [words(m.operator, m.before, m.after, ARGS) for m in mutants(source, Context("numpy", (), "contrastive_loss"))]
    assert sum(w is not None for w in said) > 20
    for w in filter(None, said):
        assert not any(code in w for code in ("norms", "top", "lse", "z @", "s - ")), w


def test_a_slug_names_words_stably():
    assert slug("`sum` where `mean` belongs") == "slip_sum_where_mean_belongs"
