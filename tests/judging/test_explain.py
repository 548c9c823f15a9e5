"""judge/judging/explain.py: which mistakes a report's wrong values are explained by, and when nothing is named.

Each test here builds value tests (expected and learner's outputs) and models (traps, slips) whose
outputs are given directly, so every rule is seen apart from running anything; the last tests judge
real files (the two-mistake info_nce file, a slip nobody listed).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from judge.judging import explain
from judge.judging import evidence, repair_search

from judge.base import encoding as wire
from judge.model.cases import Drawn, with_calls
from judge.runs.calls import Observation
from judge.model.problem import TestSpec as Spec, Tolerance
from judge.base.submission import Submission
from judge.base.encoding import Array

REPO = Path(__file__).resolve().parents[2]


def value(x) -> Observation:
    return Observation(value=Array(np.asarray(x, dtype=np.float64), "numpy", "float64"))


def case_of(index: int, expected, actual, passed: bool = False, size: int = 4) -> evidence.Test:
    spec = Spec(name=f"t{index}", group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12))
    x = wire.roundtrip(np.arange(float(size)))
    case = with_calls(Drawn(test=spec, arg_names=("x",), args=(x,), tolerance=spec.tolerance))
    return evidence.Test(index, case, value(expected), value(actual), passed)


def model(key: str, message: str, **kw) -> evidence.Model:
    return evidence.Model(key, evidence.Named(key, message, key.startswith("trap")), **kw)


def predictions(table: dict[str, dict[int, object]]):
    """`predict` from {model key: {test index: output}} (None: the model raised there)."""
    def predict(models, tests):
        return {(m.key, t.index): (None if table[m.key].get(t.index) is None else value(table[m.key][t.index]))
                for m in models for t in tests}
    return predict


def names(found: dict) -> dict[int, list[str]]:
    return {i: [n.name for n in named] for i, named in found.items()}


# ---------------------------------------------------------------- one model

def test_a_trap_giving_every_failing_output_and_every_passed_value_is_named():
    tests = [case_of(0, [1, 2, 3], [2, 5, 3]), case_of(1, [3, 1, 4], [7, 1, 4]), case_of(2, [0, 1, 0], [0, 1, 0], True)]
    trap = model("trap:doubled", "doubled")
    predict = predictions({"trap:doubled": {0: [2, 5, 3], 1: [7, 1, 4], 2: [0, 1, 0]}})
    assert names(explain.explain(tests, [trap], predict)) == {0: ["trap:doubled"], 1: ["trap:doubled"]}


def test_a_trap_contradicted_by_one_failing_test_is_not_named():
    tests = [case_of(0, [1, 2, 3], [2, 5, 3]), case_of(1, [3, 1, 4], [5, 5, 9])]
    predict = predictions({"trap:doubled": {0: [2, 5, 3], 1: [7, 1, 4]}})
    assert explain.explain(tests, [model("trap:doubled", "doubled")], predict) == {}


def test_a_trap_that_would_fail_a_test_the_learner_passed_is_not_named():
    """The learner's code gives the right value where the trap does not: it is not that trap."""
    tests = [case_of(0, [1, 2, 3], [2, 5, 3]), case_of(1, [5, 7, 1], [5, 7, 1], passed=True)]
    predict = predictions({"trap:doubled": {0: [2, 5, 3], 1: [10, 7, 1]}})
    assert explain.explain(tests, [model("trap:doubled", "doubled")], predict) == {}


def test_a_trap_that_raises_on_a_test_says_nothing_there():
    tests = [case_of(0, [1, 2, 3], [2, 5, 3]), case_of(1, [3, 1, 4], [7, 7, 9])]
    predict = predictions({"trap:doubled": {0: [2, 5, 3], 1: None}})
    assert names(explain.explain(tests, [model("trap:doubled", "doubled")], predict)) == {0: ["trap:doubled"]}


def test_two_traps_that_coincide_everywhere_name_nothing_unless_the_tests_aim_at_one():
    tests = [case_of(0, [1, 2, 3], [2, 5, 3])]
    predict = predictions({"trap:a": {0: [2, 5, 3]}, "trap:b": {0: [2, 5, 3]}})
    assert explain.explain(tests, [model("trap:a", "a"), model("trap:b", "b")], predict) == {}
    aimed = [model("trap:a", "a"), model("trap:b", "b", aimed=True)]
    assert names(explain.explain(tests, aimed, predict)) == {0: ["trap:b"]}


# ---------------------------------------------------------------- relations

def test_a_relation_holding_where_any_is_found_is_named_and_one_contradicted_is_not():
    scaled = [case_of(0, [1.0, 2.0, 3.0], [2.0, 4.0, 6.0]), case_of(1, [4.0, 1.0, 2.0], [8.0, 2.0, 4.0])]
    assert {n for named in explain.explain(scaled, [], predictions({})).values() for n in map(lambda m: m.name, named)} \
        == {"scaled"}
    mixed = [scaled[0], case_of(1, [4.0, 1.0, 2.0], [9.0, 6.0, 7.0])]   # a shift on the other test
    assert explain.explain(mixed, [], predictions({})) == {}


def test_a_trap_and_a_relation_together():
    """Every failing value is the trap's output times 3 (the trap's mistake, then a factor)."""
    tests = [case_of(0, [1, 2, 3], [6, 15, 9]), case_of(1, [3, 1, 4], [21, 3, 12])]
    predict = predictions({"trap:doubled": {0: [2, 5, 3], 1: [7, 1, 4]}})
    found = explain.explain(tests, [model("trap:doubled", "doubled")], predict)
    assert names(found) == {0: ["trap:doubled", "scaled"], 1: ["trap:doubled", "scaled"]}
    assert "known mistake's" in found[0][1].message


# ---------------------------------------------------------------- two mistakes

def test_two_traps_each_showing_where_the_other_leaves_the_value_right():
    """A pairs slip shows on finite tests (the overflow one leaves them right); the overflow shows as
    NaN where the pairs slip cannot be seen (NaN absorbs it): both are named, each where it shows."""
    tests = [case_of(0, [1, 2, 3], [2, 5, 3]), case_of(1, [3, 1, 4], [7, 1, 4]),
             case_of(2, [1, 1, 2], [np.nan, np.nan, np.nan]), case_of(3, [2, 2, 1], [2, 2, 1], passed=True)]
    predict = predictions({"trap:pairs": {0: [2, 5, 3], 1: [7, 1, 4], 2: [4, 1, 2], 3: [2, 2, 1]},
                           "trap:exp": {0: [1, 2, 3], 1: [3, 1, 4], 2: [np.nan, np.nan, np.nan], 3: [2, 2, 1]}})
    found = names(explain.explain(tests, [model("trap:pairs", "pairs"), model("trap:exp", "exp")], predict))
    assert found == {0: ["trap:pairs"], 1: ["trap:pairs"], 2: ["trap:exp"]}


def test_a_pair_is_not_named_where_the_other_mistake_would_show_too():
    """On test 1 both traps change the value and the learner's is one trap's alone: not both mistakes."""
    tests = [case_of(0, [1, 2, 3], [2, 5, 3]), case_of(1, [3, 1, 4], [7, 1, 4]), case_of(2, [1, 1, 2], [5, 5, 9])]
    predict = predictions({"trap:a": {0: [2, 5, 3], 1: [7, 1, 4], 2: [1, 1, 2]},
                           "trap:b": {0: [1, 2, 3], 1: [9, 9, 1], 2: [5, 5, 9]}})
    assert explain.explain(tests, [model("trap:a", "a"), model("trap:b", "b")], predict) == {}


def dict_case(index: int, expected: dict, actual: dict, passed: bool = False) -> evidence.Test:
    spec = Spec(name=f"t{index}", group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12))
    case = with_calls(Drawn(test=spec, arg_names=("x",), args=(wire.roundtrip(np.arange(4.0)),),
                            tolerance=spec.tolerance))
    as_value = lambda d: Observation(value={k: Array(np.asarray(v, dtype=np.float64), "numpy", "float64")  # noqa: E731
                                            for k, v in d.items()})
    return evidence.Test(index, case, as_value(expected), as_value(actual), passed)


def test_two_traps_on_two_keys_are_named_side_by_side():
    """The tokens are one trap's, the coordinates another's, on every test: no model of both is needed."""
    right = {0: ({"tokens": [1, 2, 3], "coordinates": [0, 1]}), 1: ({"tokens": [4, 5, 6], "coordinates": [1, 0]})}
    tokens = {0: [2, 1, 3], 1: [5, 4, 6]}
    coordinates = {0: [1, 0], 1: [0, 1]}
    tests = [dict_case(i, right[i], {"tokens": tokens[i], "coordinates": coordinates[i]}) for i in (0, 1)]

    def predict(models, wanted):
        made = {"trap:tokens": lambda i: {**right[i], "tokens": tokens[i]},
                "trap:coordinates": lambda i: {**right[i], "coordinates": coordinates[i]}}
        return {(m.key, t.index): Observation(value={k: Array(np.asarray(v, dtype=np.float64), "numpy", "float64")
                                                     for k, v in made[m.key](t.index).items()})
                for m in models for t in wanted}

    found = explain.explain(tests, [model("trap:tokens", "tokens"), model("trap:coordinates", "coordinates")],
                            predict)
    assert names(found) == {0: ["trap:tokens", "trap:coordinates"], 1: ["trap:tokens", "trap:coordinates"]}


def test_a_factor_is_said_in_the_words_true_on_every_test():
    """Twice the value on a test of 2 rows and 4 times on a test of 4 rows: "times the number of rows" is true
    on both, "times 2" on one only (a coincidence of that test's size)."""
    def rows_case(index, n, expected, actual):
        spec = Spec(name=f"t{index}", group="hidden", inputs={}, checks=(), tolerance=Tolerance(1e-9, 1e-12))
        x = wire.roundtrip(np.ones((n, 3)))
        case = with_calls(Drawn(test=spec, arg_names=("x",), args=(x,), tolerance=spec.tolerance))
        return evidence.Test(index, case, value(expected), value(actual), False)

    found = explain.explain([rows_case(0, 2, 1.3, 2.6), rows_case(1, 4, 1.3, 5.2)], [], predictions({}))
    said = {n.message for named in found.values() for n in named}
    assert said == {"the returned value is the expected value times the number of rows of `x`"}


def test_a_relation_seen_on_one_test_of_several_is_not_named():
    """Doubled on one test, something else on the other: nothing explains both, so nothing is named."""
    tests = [case_of(0, [1.0, 2.0, 3.0], [2.0, 4.0, 6.0]), case_of(1, [4.0, 1.0, 2.0], [4.5, 1.0, 7.0])]
    assert explain.explain(tests, [], predictions({})) == {}


def test_an_overflow_alone_proves_no_model_but_one_the_test_was_written_against():
    """Two outputs all NaN or inf are alike whatever each computes: a model is not named for overflowing where
    the learner's file did, unless the test's `hint_when` names it (a plain exp, foreseen by its author)."""
    nan = [np.nan, np.nan, np.nan]
    tests = [case_of(0, [1, 2, 3], nan), case_of(1, [3, 1, 4], [3, 1, 4], passed=True)]
    predict = predictions({"slip:zero": {0: [np.inf, np.inf, np.inf], 1: [3, 1, 4]},
                           "trap:exp": {0: nan, 1: [3, 1, 4]}})
    assert explain.explain(tests, [model("slip:zero", "the number 0 where 1 belongs")], predict) == {}
    assert names(explain.explain(tests, [model("trap:exp", "exp", aimed=True)], predict)) == {0: ["trap:exp"]}


def test_two_traps_compose_where_one_is_the_other_moved():
    """The learner's values are one trap's with the columns of every pair swapped, exactly as another trap
    swaps the expected ones: both traps are named, in their authors' words."""
    expected = [np.arange(6.0) + 10 * k for k in range(2)]
    shifted = [e + 1 for e in expected]             # the first trap's mistake
    swap = np.arange(6) ^ 1
    tests = [case_of(k, expected[k], shifted[k][swap], size=6) for k in range(2)]
    predict = predictions({"trap:shift": {k: shifted[k] for k in range(2)},
                           "trap:swap": {k: expected[k][swap] for k in range(2)}})
    found = explain.explain(tests, [model("trap:shift", "shift"), model("trap:swap", "swap")], predict)
    assert names(found) == {0: ["trap:shift", "trap:swap"], 1: ["trap:shift", "trap:swap"]}


def test_slips_are_run_only_when_no_trap_or_relation_explains():
    asked = []
    tests = [case_of(0, [1, 2, 3], [2, 5, 3])]
    predict = predictions({"trap:doubled": {0: [2, 5, 3]}})
    slips = explain.Slips(lambda: asked.append(1) or [], lambda pairs: [])
    assert names(explain.explain(tests, [model("trap:doubled", "doubled")], predict, slips)) == {0: ["trap:doubled"]}
    assert asked == []


def test_a_slip_that_raises_where_the_learners_file_gave_a_value_is_not_named_one_not_run_may_be():
    from judge.runs.calls import ErrorInfo

    tests = [case_of(0, [1.0, 2.0, 3.0], [1.5, 9.0, 3.0]), case_of(1, [2.0, 1.0, 4.0], [3.5, 5.0, 4.0])]
    raised = Observation(error=ErrorInfo("IndexError", ("IndexError",), "out of range"))

    def predict_with(second):
        def predict(models, tests_):
            made = {0: value([1.5, 9.0, 3.0]), 1: second}
            return {(m.key, t.index): made[t.index] for m in models for t in tests_}
        return predict

    def named(second):
        slip = model("slip:1", "a slip")
        return names(explain.explain(tests, [], predict_with(second), explain.Slips(lambda: [slip], lambda p: [])))

    assert named(raised) == {}                              # it raised where the learner's file gave a value
    assert named(None) == {0: ["slip:1"]}   # not run on test 1 (out of time): no evidence, named where it is seen


def test_a_slip_model_names_a_mistake_no_trap_lists_and_two_slips_of_one_solution_are_joined():
    tests = [case_of(0, [1.0, 2.0, 3.0], [1.5, 9.0, 3.0]), case_of(1, [2.0, 1.0, 4.0], [3.5, 5.0, 4.0]),
             case_of(2, [3.0, 3.0, 1.0], [3.0, 3.0, 1.0], True)]
    one = {0: [1.5, 9.0, 3.0], 1: [3.5, 5.0, 4.0], 2: [3.0, 3.0, 1.0]}
    slip = model("slip:1", "one slip", loose=True)
    predict = predictions({"slip:1": one})
    assert names(explain.explain(tests, [], predict, explain.Slips(lambda: [slip], lambda pairs: []))) == \
        {0: ["slip:1"], 1: ["slip:1"]}
    # Two slips of one solution, both showing on every failing test: found by their joined model.
    a, b = model("slip:2", "a", group="f", loose=True), model("slip:3", "b", group="f", loose=True)
    both = model("slip:4", "a; b", group="f", loose=True, parts=(a, b))
    table = {"slip:2": {0: [1.0, 4.0, 3.0], 1: [2.0, 3.0, 4.0], 2: [3.0, 3.0, 1.0]},
             "slip:3": {0: [1.5, 5.0, 3.0], 1: [3.5, 2.0, 4.0], 2: [3.0, 3.0, 1.0]}, "slip:4": one}
    joined = []
    found = explain.explain(tests, [], predictions(table),
                            explain.Slips(lambda: [a, b], lambda pairs: joined.extend(pairs) or [both]))
    assert names(found) == {0: ["slip:2", "slip:3"], 1: ["slip:2", "slip:3"]}
    assert (a, b) in joined


def test_a_change_of_the_file_after_which_it_gives_a_slips_output_names_both_mistakes():
    """Two slips, one of which no change undoes (a normalisation left out): a change of the learner's file
    after which it gives what another solution with that one slip gives, on every failing test."""
    tests = [case_of(0, [1.0, 2.0, 3.0], [5.0, 1.0, 7.0]), case_of(1, [3.0, 1.0, 4.0], [6.0, 6.0, 6.0]),
             case_of(2, [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], True)]
    left_out = model("slip:norm", "a normalisation left out", loose=True)
    repair = evidence.Model("repair:0", evidence.Named("repair_sum", "line 3: a sum", False), exact=True)
    other = evidence.Model("repair:1", evidence.Named("repair_axis", "line 4: an axis", False), exact=True)
    slip_output = {0: [2.0, 9.0, 4.0], 1: [3.0, 1.0, 5.0], 2: [0.0, 1.0, 0.0]}
    table = {"slip:norm": slip_output, "repair:0": slip_output,
             "repair:1": {0: [1.0, 1.0, 1.0], 1: [6.0, 6.0, 5.0], 2: [0.0, 1.0, 0.0]},
             "slip:alike": slip_output}

    def found(slips):
        repairs = repair_search.Repairs(lambda: [repair, other], lambda first, others: [],
                                        lambda m: evidence.Named(m.named.name, m.named.message + "; beside", False))
        return explain.explain(tests, [], predictions(table), explain.Slips(lambda: slips, lambda pairs: []), repairs)

    named = found([left_out])
    assert names(named) == {0: ["repair_sum", "slip:norm"], 1: ["repair_sum", "slip:norm"]}
    assert named[0][0].message == "line 3: a sum; beside"
    # Another slip that the same change would leave, said otherwise: which one is the learner's is not known.
    assert found([left_out, model("slip:alike", "another slip", loose=True)]) == {}


# ---------------------------------------------------------------- on real files

TWO_MISTAKES = '''
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    two_n = len(embeddings)
    n = two_n // 2
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    idx = np.arange(two_n)
    positive_index = np.concatenate([np.arange(n, two_n), np.arange(n)])
    exp_s = np.exp(s)
    denominator = exp_s.sum(axis=1) - exp_s[idx, idx]
    return float(np.mean(-s[idx, positive_index] + np.log(denominator)))
'''


def test_info_nce_with_pairs_i_plus_n_and_a_plain_exp_names_both(judge):
    """A two-mistake file: wrong pairs and a plain exp. Each test names the mistake that shows there; the
    report names both, in the JSON's `mistakes` too."""
    report = judge.submit("info_nce", Submission.from_text(TWO_MISTAKES, "two.py"), record=False)
    named = {m.name for t in report.tests for m in t.mistakes}
    assert {"pairs_i_plus_n", "naive_exp"} <= named
    tiny = next(t for t in report.tests if t.name == "tiny_temperature_random")
    assert [m.name for m in tiny.mistakes] == ["naive_exp"]
    assert any(m["name"] == "pairs_i_plus_n" for t in report.to_json()["tests"] for m in t["mistakes"])


NO_TEMPERATURE = '''
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if temperature <= 0 or image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("bad input")
    similarities = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T
    labels = torch.arange(len(similarities))
    loss = (F.cross_entropy(similarities, labels) + F.cross_entropy(similarities.T, labels)) / 2
    return {"loss": loss, "similarities": similarities,
            "image_to_text_accuracy": (similarities.argmax(1) == labels).float().mean(),
            "text_to_image_accuracy": (similarities.argmax(0) == labels).float().mean()}
'''


def test_clip_loss_without_the_temperature_is_named(judge):
    """No trap lists a missing temperature; the judge names it in the statement's words."""
    report = judge.submit("clip_loss", Submission.from_text(NO_TEMPERATURE, "no_temperature.py"), record=False)
    first = report.first_failure
    assert first.mistake is not None and "temperature" in first.mistake.message, first.text
    assert "/ temperature" not in first.text and "def " not in first.text  # words, never the model's code


HAND_MADE_TABLE = '''
import math

import numpy as np
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shapes do not fit")
    table = np.zeros((n + 1, d))
    for p in range(n + 1):
        for i in range(0, d, 2):
            table[p, i] = math.sin(p / 10000 ** (i / d))
            if i + 1 < d:
                table[p, i + 1] = math.cos(p / 10000 ** (i / d))
    return torch.cat([cls_token.expand(b, -1, -1), tokens], dim=1) + torch.from_numpy(table).to(tokens.dtype)
'''


def test_a_trap_made_in_float32_names_the_same_mistake_made_in_float64(judge):
    """The sinusoidal-table trap computes its table in float32; a learner's float64 table differs from it
    by float32 rounding only: the same mistake, named on the first failing test (not left to the
    gradient check at the bottom)."""
    report = judge.submit("pos_embed", Submission.from_text(HAND_MADE_TABLE, "table.py"), record=False)
    assert report.first_failure.mistake is not None and report.first_failure.mistake.name == "sinusoidal_positions"
