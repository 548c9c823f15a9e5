"""Known mistakes for `nt_xent`, each a complete solution with one classic error.

Diagnosed by value; a naive exp gives the reference's value where it does
not overflow and is caught by the finite check at tiny temperatures.
"""
import torch


def _similarities(z1, z2, temperature, normalise=True):
    z = torch.cat([z1, z2]).double()
    if normalise:
        z = z / z.norm(dim=1, keepdim=True).clamp_min(1e-12)
    return z @ z.T / float(temperature)


def _loss(s, positives, exclude, reduce=torch.mean):
    rows = torch.arange(len(s))
    masked = s.masked_fill(exclude, float("-inf"))
    return reduce(torch.logsumexp(masked, dim=1) - s[rows, positives])


def _eye(m):
    return torch.eye(m, dtype=torch.bool)


def _positives(n):
    return (torch.arange(2 * n) + n) % (2 * n)


def pairs_adjacent(z1, z2, temperature):
    n = len(z1)
    s = _similarities(z1, z2, temperature)
    return _loss(s, torch.arange(2 * n) ^ 1, _eye(2 * n)).to(z1.dtype)


def self_in_denominator(z1, z2, temperature):
    n = len(z1)
    s = _similarities(z1, z2, temperature)
    return _loss(s, _positives(n), torch.zeros(2 * n, 2 * n, dtype=torch.bool)).to(z1.dtype)


def positive_removed(z1, z2, temperature):
    n = len(z1)
    s = _similarities(z1, z2, temperature)
    exclude = _eye(2 * n)
    exclude[torch.arange(2 * n), _positives(n)] = True
    rows = torch.arange(2 * n)
    lse = torch.logsumexp(s.masked_fill(exclude, float("-inf")), dim=1)
    return (lse - s[rows, _positives(n)]).mean().to(z1.dtype)


def one_direction(z1, z2, temperature):
    n = len(z1)
    s = _similarities(z1, z2, temperature)
    rows = torch.arange(n)
    masked = s.masked_fill(_eye(2 * n), float("-inf"))[:n]
    return (torch.logsumexp(masked, dim=1) - s[rows, rows + n]).mean().to(z1.dtype)


def no_normalisation(z1, z2, temperature):
    n = len(z1)
    s = _similarities(z1, z2, temperature, normalise=False)
    return _loss(s, _positives(n), _eye(2 * n)).to(z1.dtype)


def summed(z1, z2, temperature):
    n = len(z1)
    s = _similarities(z1, z2, temperature)
    return _loss(s, _positives(n), _eye(2 * n), torch.sum).to(z1.dtype)


def labels_offset_after_diagonal(z1, z2, temperature):
    """The diagonal removed (each row keeps its 2N - 1 other entries), the labels taken modulo 2N - 1 unshifted."""
    n = len(z1)
    s = _similarities(z1, z2, temperature)
    logits = s[~_eye(2 * n)].reshape(2 * n, 2 * n - 1)
    labels = (torch.arange(2 * n) + n) % (2 * n - 1)
    return torch.nn.functional.cross_entropy(logits, labels).to(z1.dtype)
