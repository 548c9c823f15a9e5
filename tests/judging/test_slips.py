"""judge/judging/slips.py: slip models made from trusted solutions, joined two at a time, run in the sandbox."""
from __future__ import annotations

import numpy as np

from judge.base import encoding as wire
from judge.model.cases import Drawn, with_calls
from judge.runs.calls import Observation
from judge.judging.mutants import Context
from judge.model.problem import TestSpec as Spec, Tolerance
from judge.judging.slips import RAISED, Slips, merged

REFERENCE = '''
import numpy as np


def loss(x, scale):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    centred = x - x.mean(axis=0)
    return float((centred ** 2).sum(axis=1).mean() / scale)
'''
OTHER = '''
import numpy as np


def loss(x, scale):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    return float(np.var(x, axis=0).sum() / scale)
'''


def slips(exclude=()) -> Slips:
    return Slips(lambda: [("reference", REFERENCE), ("other.py", OTHER)], Context("numpy", (), "loss"),
                 ("x", "scale"), frozenset(exclude))


def case(x: np.ndarray, scale: float = 2.0, name: str = "t"):
    spec = Spec(name=name, group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12))
    return with_calls(Drawn(test=spec, arg_names=("x", "scale"), args=(wire.roundtrip(x), scale), tolerance=spec.tolerance))


def test_models_are_the_slips_that_can_be_said_each_from_its_file():
    made = slips().models
    said = {m.words for m in made}
    assert "`sum` where `mean` belongs" in said and "the division by `scale` left out" in said
    assert all(m.origin in ("reference", "other.py") for m in made)
    assert not any("raise" in m.words or "x.ndim" in m.words for m in made)   # guards are not values
    assert {m.origin for m in slips(exclude=["reference"]).models} == {"other.py"}


def test_two_slips_of_one_file_are_joined_even_on_one_line():
    base = "y = (a - b).mean()\nz = 1\n"
    assert merged(base, "y = (a + b).mean()\nz = 1\n", "y = (a - b).sum()\nz = 1\n") == "y = (a + b).sum()\nz = 1\n"
    assert merged(base, "y = (a + b).mean()\nz = 1\n", "y = (a - b).mean()\nz = 2\n") == "y = (a + b).mean()\nz = 2\n"
    assert merged(base, "y = (a + b).mean()\nz = 1\n", "y = (a * b).mean()\nz = 1\n") is None  # the same place
    kept = slips()
    made = kept.models
    sum_ = next(m for m in made if m.origin == "reference" and m.words == "`sum` where `mean` belongs"
                and ".sum(axis=1).sum()" in m.source)
    scale = next(m for m in made if m.origin == "reference" and m.words == "the division by `scale` left out")
    both = kept.joined(sum_, scale)
    assert both is not None and both.parts == (sum_.index, scale.index)
    assert ".sum(axis=1).sum()" in both.source and "/ scale" not in both.source
    assert kept.joined(sum_, scale) is both                                         # made once
    other = next(m for m in made if m.origin == "other.py")
    assert kept.joined(sum_, other) is None                                         # two files: no joint model
    assert both not in kept.models                                                  # joined models are not slips


def test_models_run_in_the_sandbox_and_their_outputs_are_kept(judge):
    """Each model's output on a test's inputs, as the model itself gives it; one that raises gives none."""
    kept = slips()
    made = kept.models
    x = np.arange(12.0).reshape(4, 3)
    cases = [case(x), case(np.arange(3.0), 1.0, "flat")]  # the second is 1-D: every model raises
    backend = judge.backend
    outputs = kept.outputs(backend, "numpy", _limits(), cases, [m.index for m in made], lambda c: 64)
    for model in made:
        space: dict = {}
        exec(model.source, space)
        try:
            want = space["loss"](x.copy(), 2.0)
        except Exception:
            want = RAISED
        got = outputs[("t", model.index)]
        assert got == RAISED if want is RAISED else (isinstance(got, Observation) and np.isclose(got.value, want))
        assert outputs[("flat", model.index)] == RAISED
    # A second ask runs nothing: the outputs are kept.
    again = kept.outputs(None, "numpy", _limits(), cases[:1], [m.index for m in made], lambda c: 64)
    assert again == {k: v for k, v in outputs.items() if k[0] == "t" and k in again}


def _limits():
    from judge.runs.contract import Limits

    return Limits(time_s=2.0)
