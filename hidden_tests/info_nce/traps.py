"""Known mistakes for `info_nce`, each a complete solution with one classic error.

The judge runs these on a failing test's inputs; when the submission's output
equals one of them, the message names that mistake. Mistakes that do not
change the value are caught elsewhere: a naive exp overflows (the finite
check names it). A dropped unpaired row returns a value where ValueError is
due; the judge runs the traps on that test too, so `drop_unpaired_row` names it.
"""
import numpy as np


def _normalise(e):
    e = e.astype(np.float64)
    return e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)


def _logsumexp(s, mask):
    """Row-wise log sum exp over the entries where `mask` is True."""
    s = np.where(mask, s, -np.inf)
    top = s.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return top[:, 0] + np.log(np.exp(s - top).sum(axis=1))


def _loss(z, t, positive, mask, reduce=np.mean):
    s = z @ z.T / t
    index = np.arange(len(z))
    return float(reduce(_logsumexp(s, mask) - s[index, positive]))


def self_in_denominator(embeddings, temperature):
    z = _normalise(embeddings)
    n = len(z)
    return _loss(z, temperature, np.arange(n) ^ 1, np.ones((n, n), bool))


def positive_not_in_denominator(embeddings, temperature):
    z = _normalise(embeddings)
    n = len(z)
    index = np.arange(n)
    mask = ~np.eye(n, dtype=bool)
    mask[index, index ^ 1] = False
    return _loss(z, temperature, index ^ 1, mask)


def pairs_i_plus_n(embeddings, temperature):
    z = _normalise(embeddings)
    n = len(z)
    return _loss(z, temperature, (np.arange(n) + n // 2) % n, ~np.eye(n, dtype=bool))


def no_normalisation(embeddings, temperature):
    z = embeddings.astype(np.float64)
    n = len(z)
    return _loss(z, temperature, np.arange(n) ^ 1, ~np.eye(n, dtype=bool))


def masked_by_value(embeddings, temperature):
    z = _normalise(embeddings)
    n = len(z)
    same = np.isclose(z @ z.T, 1.0)  # "self" found by value: every pair whose cosine is 1, as learners write it
    return _loss(z, temperature, np.arange(n) ^ 1, ~same)


def sum_not_mean(embeddings, temperature):
    z = _normalise(embeddings)
    n = len(z)
    return _loss(z, temperature, np.arange(n) ^ 1, ~np.eye(n, dtype=bool), reduce=np.sum)


def naive_exp(embeddings, temperature):
    z = _normalise(embeddings)
    n = len(z)
    s = z @ z.T / temperature
    index = np.arange(n)
    with np.errstate(over="ignore", invalid="ignore"):
        denominator = (np.exp(s) * ~np.eye(n, dtype=bool)).sum(axis=1)
        return float(np.mean(np.log(denominator) - s[index, index ^ 1]))


def negatives_other_view_only(embeddings, temperature):
    """Each anchor contrasted only with the rows of the other view (k % 2 != i % 2), as in two-view CLIP-style code."""
    z = _normalise(embeddings)
    n = len(z)
    index = np.arange(n)
    return _loss(z, temperature, index ^ 1, (index[:, None] % 2) != (index[None, :] % 2))


def drop_unpaired_row(embeddings, temperature):
    if temperature <= 0 or embeddings.ndim != 2:
        raise ValueError("not a valid input")
    z = _normalise(embeddings[: len(embeddings) - len(embeddings) % 2])
    if len(z) < 2:
        raise ValueError("fewer than 2 rows")
    n = len(z)
    return _loss(z, temperature, np.arange(n) ^ 1, ~np.eye(n, dtype=bool))
