"""judge/judging/diagnose.py: generic diagnoses name a wrong output by its relation to the expected one.

Each diagnosis gets a wrong output it must name and, where a near miss is
likely, one it must not; no message may contain a hidden expected value.
"""
from __future__ import annotations

import numpy as np
import pytest

from judge.model import problem as model
from judge.model.cases import Case
from judge.judging.diagnose import generic
from judge.model.problem import Tolerance
from judge.base.encoding import Array

EXACT = Tolerance(rtol=0.0, atol=0.0)
LOOSE = Tolerance(rtol=1e-5, atol=1e-7)


def _array(data, dtype: str = "float32", library: str = "torch") -> Array:
    return Array(data=np.asarray(data, dtype=dtype), library=library, dtype=dtype)


def _case(args: dict, tolerance: Tolerance = LOOSE) -> Case:
    test = model.TestSpec(name="t", group="hidden", inputs={}, checks=(), tolerance=tolerance)
    return Case(test=test, arg_names=tuple(args), args=tuple(args.values()), tolerance=tolerance)


RNG = np.random.default_rng(7)
EMB = _array(RNG.normal(size=(8, 4)))                  # 8 rows: the batch size
LOSS = 1.3862943611198906


def _named(expected, actual, args=None, tolerance=LOOSE) -> str:
    found = generic(_case(args or {"embeddings": EMB, "temperature": 0.07}, tolerance), expected, actual)
    return found.message if found else ""


@pytest.mark.parametrize("actual, words", [
    (2 * LOSS, "times 2"),
    (LOSS / 2, "divided by 2"),
    (LOSS * 8, "times the number of rows of `embeddings`"),
    (LOSS / 8, "divided by the number of rows of `embeddings`"),
    (LOSS * 4 / 3, "m / (m - 1)"),                 # a divisor of 2(N - 1) for 2N, N = 4 pairs
    (LOSS * 0.07, "times `temperature`"),
    (LOSS / 0.07, "divided by `temperature`"),
    (LOSS * 100, "a percentage"),
    (-LOSS, "negated"),
    (round(LOSS, 4), "rounded to 4 decimals"),
])
def test_a_scalar_off_by_a_simple_factor_or_rounded(actual, words) -> None:
    message = _named(LOSS, actual, tolerance=Tolerance(rtol=1e-6, atol=1e-8))
    assert words in message
    assert f"{LOSS:.4g}" not in message  # the hidden expected value is never given away


def test_a_scalar_off_by_no_simple_relation_is_not_named() -> None:
    assert _named(LOSS, LOSS * 1.2345) == ""
    assert _named(LOSS, LOSS + 0.01) == ""


def test_two_accuracies_differing_by_a_count_are_not_a_factor() -> None:
    """2/17 vs 1/17 is twice as much by coincidence: fractions of N items say nothing about the mistake."""
    args = {"embeddings": _array(RNG.normal(size=(17, 4)))}
    assert _named({"acc": 1 / 17}, {"acc": 2 / 17}, args) == ""


def test_a_zero_dim_tensor_in_another_dtype() -> None:
    message = _named({"loss": _array(LOSS)}, {"loss": _array(LOSS, "float64")})
    assert "`loss` has the right values in dtype float64; convert it to float32" in message


MATRIX = RNG.normal(size=(5, 5)).astype(np.float32)


@pytest.mark.parametrize("make, words", [
    (lambda e: e.T, "transposed"),
    (lambda e: -e, "negated"),
    (lambda e: e + 0.25, "same constant added"),
    (lambda e: e * 1.7, "scaled by one constant factor"),
    (lambda e: e / 0.07, "divided by `temperature`"),
    (lambda e: e[::-1], "rows in reverse order"),
    (lambda e: e[:, [1, 2, 3, 4, 0]], "columns with the first one moved to the end"),
    (lambda e: e[:, [2, 3, 4, 0, 1]], "columns in an order rotated by 3 positions"),
    (lambda e: np.round(e, 2), "rounded to 2 decimals"),
])
def test_an_array_related_to_the_expected_one(make, words) -> None:
    expected = _array(MATRIX)
    assert words in _named({"similarities": expected}, {"similarities": _array(make(MATRIX))})


def test_a_known_permutation_is_named_column_major() -> None:
    tokens = RNG.normal(size=(2, 12, 4)).astype(np.float32)           # a 3 x 4 grid of tokens
    column_major = tokens[:, np.arange(12).reshape(3, 4).T.reshape(-1)]
    message = _named({"tokens": _array(tokens)}, {"tokens": _array(column_major)}, tolerance=EXACT)
    assert "column-major order" in message and "3 x 4 grid" in message


def test_pairs_swapped_inside() -> None:
    rows = RNG.normal(size=(6, 3))
    message = _named(_array(rows, "float64", "numpy"), _array(rows[np.arange(6) ^ 1], "float64", "numpy"))
    assert "(2i, 2i + 1) swapped" in message


def test_the_right_values_in_the_wrong_places() -> None:
    image = np.arange(16.0).reshape(1, 1, 4, 4)
    scrambled = image.reshape(1, 1, 2, 2, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(1, 1, 4, 4)
    assert "exactly the expected values, but in other places" in _named(_array(image), _array(scrambled))


def test_the_right_values_in_another_shape() -> None:
    message = _named(_array(MATRIX), _array(MATRIX.reshape(25)))
    assert "in the expected order, shaped (25,); expected shape (5, 5)" in message


def test_extra_tokens_at_the_start_at_the_end_and_overlapping() -> None:
    tokens = RNG.normal(size=(2, 4, 3)).astype(np.float32)
    first = np.concatenate([tokens[:, :1], tokens], axis=1)
    assert "1 extra token (axis 1) at the start" in _named(_array(tokens), _array(first))
    last = np.concatenate([tokens, tokens[:, :2]], axis=1)
    assert "2 extra tokens (axis 1) at the end" in _named(_array(tokens), _array(last))
    mixed = np.concatenate([tokens[:, :2], tokens[:, 1:2], tokens[:, 2:]], axis=1)
    assert "holds all the expected tokens (axis 1) and 1 more" in _named(_array(tokens), _array(mixed))


def test_missing_tokens() -> None:
    tokens = RNG.normal(size=(2, 4, 3)).astype(np.float32)
    assert "is missing 1 of the expected tokens" in _named(_array(tokens), _array(tokens[:, :3]))


def test_another_dtype_within_the_coarser_dtype_rounding() -> None:
    exact = RNG.normal(size=(3, 4))
    message = _named(_array(exact, "float64"), _array(exact, "float32"), tolerance=Tolerance(1e-12, 1e-12))
    assert "right values in dtype float32; convert it to float64" in message


def test_unrelated_arrays_are_not_named() -> None:
    assert _named(_array(MATRIX), _array(RNG.normal(size=(5, 5)))) == ""
    assert _named(_array(MATRIX), _array(RNG.normal(size=(5, 7)))) == ""


def test_only_the_first_differing_leaf_is_diagnosed() -> None:
    """The diagnosis speaks of the output the failure message names, not a later key that happens to relate."""
    expected = {"a": 1.0, "b": _array(MATRIX)}
    actual = {"a": 1.61803, "b": _array(MATRIX.T)}
    assert _named(expected, actual) == ""


def test_empty_outputs_are_not_diagnosed_and_do_not_crash() -> None:
    tokens = RNG.normal(size=(2, 4, 3)).astype(np.float32)
    assert _named(_array(tokens), _array(tokens[:, :0])) == ""
    assert _named(_array(tokens[:, :0]), _array(tokens)) == ""
    assert _named(_array(np.zeros((2, 0, 3))), _array(np.zeros((2, 1, 3)))) == ""


def test_a_relation_on_one_key_is_not_said_when_another_key_differs_unexplained() -> None:
    """A diagnosis speaks only when it explains the whole difference."""
    expected = {"loss": 1.0, "similarities": _array(MATRIX)}
    assert _named(expected, {"loss": 2.0, "similarities": _array(MATRIX * 1.2345 + 0.1)}) == ""
    named = _named(expected, {"loss": 2.0, "similarities": _array(MATRIX)})
    assert "`loss` is the expected value times 2" in named
    both = _named(expected, {"loss": 2.0, "similarities": _array(MATRIX * 2)})
    assert "`loss` is the expected value times 2" in both


def test_predicted_labels_that_happen_to_be_a_permutation_or_a_multiple_are_not_named() -> None:
    """Class labels repeat: another order of them, or labels twice as large, say nothing (a ridge without
    an intercept was told 'slices in another order' and 'scaled by one constant factor'). A named
    factor (times 2) is still said: it is true of the whole output."""
    expected = {"predictions": _array([0, 1, 1, 2, 0, 1], "int64", "numpy"), "accuracy": 0.5}
    reordered = {"predictions": _array([1, 0, 1, 2, 1, 0], "int64", "numpy"), "accuracy": 1 / 6}
    assert _named(expected, reordered) == ""
    tripled = {"predictions": _array([0, 3, 3, 6, 0, 3], "int64", "numpy"), "accuracy": 0.5}
    assert _named(expected, tripled) == ""
    zeros = {"predictions": _array([0, 0, 0, 0, 0, 0], "int64", "numpy"), "accuracy": 0.5}
    assert _named(expected, zeros) == ""


def test_an_output_of_zeros_is_not_the_expected_array_scaled() -> None:
    assert _named(_array(MATRIX), _array(np.zeros_like(MATRIX))) == ""


def test_a_value_within_atol_of_zero_is_no_factor_of_a_small_expected_one() -> None:
    """collapse_std's nearly collapsed batch: 0.0002 expected, 0 returned (a floor division); atol 2e-6 holds
    0.0002 / 100 too, but "divided by 100" would name a mistake the file does not make."""
    tolerance = Tolerance(rtol=1e-5, atol=2e-6)
    assert _named(0.000196, 0.0, tolerance=tolerance) == ""
    assert _named(0.000196, 1e-7, tolerance=tolerance) == ""
    small = RNG.uniform(1e-4, 3e-4, size=(2, 3))
    assert _named(_array(small), _array(small / 200), tolerance=tolerance) == ""
    assert "divided by 2" in _named(_array(small), _array(small / 2), tolerance=tolerance)
    assert "divided by 2" in _named(0.000196, 0.000098, tolerance=tolerance)  # a real factor still is one


def test_rows_with_repeats_in_another_order_are_not_named() -> None:
    rows = np.repeat(RNG.normal(size=(3, 4)), 2, axis=0)  # rows 0 = 1, 2 = 3, 4 = 5
    assert _named(_array(rows), _array(rows[[1, 0, 2, 3, 4, 5]])) == ""  # equal to the expected: not even wrong
    assert _named(_array(rows), _array(rows[[2, 3, 0, 1, 4, 5]])) == ""  # pairs moved: ambiguous with repeats


def test_short_numbers_near_the_expected_ones_are_not_float32_values() -> None:
    """simsiam_loss's floor division gave -1 beside an expected -0.9999995 (z is p plus 0.001 noise): a float32
    number within 1e-5, but no float32 step made it. Short numbers are float32 numbers by being short."""
    tolerance = Tolerance(1e-10, 1e-12)
    assert _named(np.float64(-0.9999995), np.float64(-1.0), tolerance=tolerance) == ""
    assert _named(_array([-0.999993, 0.0029297], "float64"), _array([-1.0, 3 / 1024], "float64"), tolerance=tolerance) == ""


def test_float64_values_that_went_through_float32_are_named() -> None:
    exact = RNG.normal(size=(4, 5))
    through = exact.astype(np.float32).astype(np.float64)
    message = _named(_array(exact, "float64"), _array(through, "float64"), tolerance=Tolerance(1e-12, 1e-12))
    assert "holds float32 numbers" in message
    # a small difference of another kind is not float32 rounding
    other = _named(_array(exact, "float64"), _array(exact + 3e-7, "float64"), tolerance=Tolerance(1e-12, 1e-12))
    assert "float32" not in other


# ---------------------------------------------------------------- the slice search behind permutations

def _search(wanted, pool, rtol=1e-5, atol=1e-8):
    from judge.judging.diagnose import Context, _find

    return _find(np.asarray(wanted, dtype=np.float64), np.asarray(pool, dtype=np.float64), Context(rtol, atol, ()))


@pytest.mark.parametrize("rtol, atol", [(1e-5, 1e-8), (0.0, 0.0), (1e-2, 0.5), (0.0, 1e-3)])
def test_a_slice_within_tolerance_of_a_pool_slice_is_always_found(rtol, atol) -> None:
    # The search rules candidates out by their projections first: no true match may be ruled out,
    # whatever the tolerance, the scale of the values or the slices' length. (Values are large
    # against atol: a slice moved by more than the spacing of the pool's slices may leave the
    # window of candidates the search compares, by design.)
    rng = np.random.default_rng(11)
    for trial in range(200):
        rows, width = int(rng.integers(1, 30)), int(rng.integers(1, 200))
        pool = rng.normal(size=(rows, width)) * max(10.0 ** rng.integers(-6, 8), 1000 * atol)
        picked = rng.integers(0, rows, size=int(rng.integers(1, 30)))
        slack = (atol + rtol * np.abs(pool[picked])) * rng.uniform(-0.999, 0.999, size=(len(picked), width))
        found = _search(pool[picked] + slack, pool, rtol, atol)
        assert found is not None, trial
        from judge.base.numerics import within

        assert within(pool[found], pool[picked] + slack, rtol, atol).all()


def test_the_first_equal_candidate_is_taken_and_a_missing_slice_ends_the_search() -> None:
    pool = np.array([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0], [5.0, 6.0]])
    found = _search([[1.0, 2.0], [5.0, 6.0], [3.0, 4.0]], pool)
    assert list(found[1:]) == [3, 1] and found[0] in (0, 2)
    assert _search([[1.0, 2.0], [7.0, 8.0]], pool) is None
    assert _search([[1.0, 2.0 + 1e-3]], pool) is None          # outside the tolerance
    assert list(_search([[1.0, 2.0 + 1e-3]], pool, atol=1e-2)) in ([0], [2])


def test_slices_moved_are_values_moved_even_where_values_repeat() -> None:
    # Distinct rows, but a value repeated across rows: `rearranged` cannot tell a coincidence from the values
    # alone, yet rows in another order are values in other places. A report's tests then agree on the
    # rearrangement, whichever of them repeat a value (judge.judging.explain._find_relation).
    from judge.judging.diagnose import relations

    expected = np.array([[1.0, 2.0], [2.0, 5.0], [7.0, 1.0]])
    actual = expected[[2, 0, 1]]
    found = [d.name for d in relations(_case({"x": _array(expected, "float64", "numpy")}, EXACT),
                                       _array(expected, "float64", "numpy"), _array(actual, "float64", "numpy"))]
    assert "permuted" in found and "rearranged" in found, found
