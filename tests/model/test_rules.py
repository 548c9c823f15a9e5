"""judge/model/rules.py: what a test's checks enforce, and which of it no named rule licenses (issue 12)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from judge.base import encoding as wire
from judge.runs.calls import Observation
from judge.model import problem as model
from judge.model.problem import CheckSpec, Rule, load_problem
from judge.model.rules import Enforced, Offence, collapse, enforced, offences

REPO = Path(__file__).resolve().parents[2]


def _tensor(data, *, grad: bool = False) -> wire.Array:
    return wire.Array(data=np.asarray(data, dtype=np.float32), library="torch", dtype="float32", has_grad_fn=grad)


CLIP_OUTPUT = {"loss": _tensor(0.5, grad=True), "similarities": _tensor([[1.0, 0.0], [0.0, 1.0]], grad=True),
               "image_to_text_accuracy": 1.0, "text_to_image_accuracy": 0.5}


def _test(*checks: CheckSpec, rules: tuple[str, ...] = ()) -> model.TestSpec:
    return model.TestSpec(name="t", group="hidden", inputs={}, checks=checks, tolerance=None, rules=rules)


def test_compare_enforces_the_stages_that_can_fail_per_key() -> None:
    found = set(enforced(_test(CheckSpec("compare", {})), {"main": Observation(value=CLIP_OUTPUT)}))
    assert Enforced("dtype", "loss") in found and Enforced("shape", "similarities") in found
    assert Enforced("values", "image_to_text_accuracy") in found
    # a Python float has no shape or dtype to get wrong
    assert Enforced("dtype", "image_to_text_accuracy") not in found
    assert Enforced("shape", "text_to_image_accuracy") not in found


def test_integer_outputs_cannot_fail_finite() -> None:
    coords = wire.Array(data=np.zeros((3, 2), dtype=np.int64), library="torch", dtype="int64")
    found = enforced(_test(CheckSpec("compare", {})), {"main": Observation(value={"coordinates": coords})})
    assert Enforced("finite", "coordinates") not in found and Enforced("values", "coordinates") in found


def test_gradient_enforces_the_outputs_it_backpropagates() -> None:
    test = _test(CheckSpec("gradient", {"wrt": ["image_embeddings"], "outputs": ["similarities"]}))
    assert enforced(test, {"main": Observation(value=CLIP_OUTPUT)}) == [Enforced("gradient", "similarities")]
    every = _test(CheckSpec("gradient", {"wrt": ["image_embeddings"]}))
    found = enforced(every, {"gradient.backward": Observation(value=CLIP_OUTPUT)})
    assert found == [Enforced("gradient", "loss"), Enforced("gradient", "similarities")]


def test_raises_and_mutation_concern_the_whole_call() -> None:
    test = _test(CheckSpec("raises", {"type": "ValueError"}), CheckSpec("mutation", {}))
    assert enforced(test, {}) == [Enforced("raises"), Enforced("mutation")]


def test_a_gradient_on_similarities_is_not_licensed_by_a_rule_about_the_loss() -> None:
    """issue 12: clip_loss required gradients through `similarities` although only the loss must carry them."""
    problem = load_problem(REPO, "clip_loss")
    test = _test(CheckSpec("gradient", {"wrt": ["image_embeddings"], "outputs": ["similarities"]}),
                 rules=("loss_gradient",))
    found = offences(problem, test, {"main": Observation(value=CLIP_OUTPUT)})
    assert len(found) == 1 and "gradient of `similarities`" in found[0].message


def test_an_unstated_dtype_rule_is_an_offence() -> None:
    problem = load_problem(REPO, "clip_loss")
    unstated = replace(problem, rules=tuple(r for r in problem.rules if r.id != "loss_tensor"))
    test = _test(CheckSpec("compare", {}), rules=("output_keys", "normalised_rows", "similarities",
                                                  "symmetric_loss", "accuracies"))
    messages = [o.message for o in offences(unstated, test, {"main": Observation(value=CLIP_OUTPUT)})]
    assert any("dtype of `loss`" in m for m in messages) and any("shape of `loss`" in m for m in messages)
    assert not offences(problem, replace(test, rules=test.rules + ("loss_tensor",)),
                        {"main": Observation(value=CLIP_OUTPUT)})


def test_a_test_that_names_no_rule_is_an_offence() -> None:
    problem = replace(load_problem(REPO, "clip_loss"), rules=(Rule("any", "anything", ("values",)),))
    found = offences(problem, _test(CheckSpec("compare", {})), {"main": Observation(value=CLIP_OUTPUT)})
    assert [o.message for o in found] == ["names no rule: add `rules: [ids]` naming the statement's rules it enforces"]


def test_identical_offences_collapse_into_one_line() -> None:
    lines = collapse([Offence(f"t{i}", "names no rule") for i in range(9)] + [Offence("u", "checks x")])
    assert lines == ["9 tests t0, t1, t2, t3, t4, t5 and 3 more: names no rule", "test u: checks x"]
