"""Known mistakes for `siglip_loss`, each a complete solution with one classic error.

Computed in float64 like the reference. Mistakes that keep the values right
are caught by their own checks: math.exp on t_prime (the gradient check),
normalising in place (the mutation check).
"""
import torch
import torch.nn.functional as F


def _value(x):
    return x.double() if isinstance(x, torch.Tensor) else torch.tensor(float(x), dtype=torch.float64)


def _cosines(image, text, normalise=True):
    image, text = image.double(), text.double()
    if normalise:
        image, text = F.normalize(image, dim=1), F.normalize(text, dim=1)
    return image @ text.T


def _signs(n):
    return 2 * torch.eye(n, dtype=torch.float64) - 1


def _loss(logits, dtype, labels=None, divide=None):
    n = logits.shape[0]
    labels = _signs(n) if labels is None else labels
    total = -F.logsigmoid(labels * logits).sum()
    return (total / (divide if divide is not None else n)).to(dtype)


def softmax_cross_entropy(image, text, t_prime, bias):
    logits = torch.exp(_value(t_prime)) * _cosines(image, text) + _value(bias)
    target = torch.arange(logits.shape[0])
    return ((F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2).to(image.dtype)


def softmax_cross_entropy_one_direction(image, text, t_prime, bias):
    logits = torch.exp(_value(t_prime)) * _cosines(image, text) + _value(bias)
    return F.cross_entropy(logits, torch.arange(logits.shape[0])).to(image.dtype)


def labels_zero_one(image, text, t_prime, bias):
    logits = torch.exp(_value(t_prime)) * _cosines(image, text) + _value(bias)
    return _loss(logits, image.dtype, labels=torch.eye(logits.shape[0], dtype=torch.float64))


def divided_by_n_squared(image, text, t_prime, bias):
    logits = torch.exp(_value(t_prime)) * _cosines(image, text) + _value(bias)
    return _loss(logits, image.dtype, divide=logits.numel())


def t_prime_used_as_t(image, text, t_prime, bias):
    return _loss(_value(t_prime) * _cosines(image, text) + _value(bias), image.dtype)


def divided_by_t(image, text, t_prime, bias):
    return _loss(_cosines(image, text) / torch.exp(_value(t_prime)) + _value(bias), image.dtype)


def no_normalisation(image, text, t_prime, bias):
    return _loss(torch.exp(_value(t_prime)) * _cosines(image, text, normalise=False) + _value(bias), image.dtype)


def naive_log_sigmoid(image, text, t_prime, bias):
    logits = torch.exp(_value(t_prime)) * _cosines(image, text) + _value(bias)
    x = (_signs(logits.shape[0]) * logits).to(image.dtype)
    return (-torch.log(torch.sigmoid(x)).sum() / logits.shape[0]).to(image.dtype)


def bias_inside_scaling(image, text, t_prime, bias):
    return _loss(torch.exp(_value(t_prime)) * (_cosines(image, text) + _value(bias)), image.dtype)
