"""Known mistakes for `clip_loss`, each a complete solution with one classic error.

The judge runs these on a failing test's inputs; when the submission's output
equals one of them, the message names that mistake. Mistakes that leave the
values right are caught by their own checks instead: normalising in place (the
mutation check), computing in numpy (the gradient check: no gradient reaches
the inputs).
"""
import torch
import torch.nn.functional as F


def _parts(image, text, temperature, normalise=True, scale=None):
    if normalise:
        image, text = F.normalize(image.double(), dim=1), F.normalize(text.double(), dim=1)
    else:
        image, text = image.double(), text.double()
    similarities = image @ text.T
    similarities = similarities * temperature if scale == "multiply" else similarities / temperature
    return similarities, torch.arange(similarities.shape[0])


def _result(similarities, loss, dtype, swap_accuracies=False):
    labels = torch.arange(similarities.shape[0])
    i2t = (similarities.argmax(dim=1) == labels).double().mean().item()
    t2i = (similarities.argmax(dim=0) == labels).double().mean().item()
    if swap_accuracies:
        i2t, t2i = t2i, i2t
    return {"loss": loss.to(dtype), "similarities": similarities.to(dtype),
            "image_to_text_accuracy": i2t, "text_to_image_accuracy": t2i}


def one_direction(image, text, temperature):
    s, labels = _parts(image, text, temperature)
    return _result(s, F.cross_entropy(s, labels), image.dtype)


def directions_summed(image, text, temperature):
    s, labels = _parts(image, text, temperature)
    return _result(s, F.cross_entropy(s, labels) + F.cross_entropy(s.T, labels), image.dtype)


def no_normalisation(image, text, temperature):
    s, labels = _parts(image, text, temperature, normalise=False)
    return _result(s, (F.cross_entropy(s, labels) + F.cross_entropy(s.T, labels)) / 2, image.dtype)


def times_temperature(image, text, temperature):
    s, labels = _parts(image, text, temperature, scale="multiply")
    return _result(s, (F.cross_entropy(s, labels) + F.cross_entropy(s.T, labels)) / 2, image.dtype)


def sum_not_mean(image, text, temperature):
    s, labels = _parts(image, text, temperature)
    loss = (F.cross_entropy(s, labels, reduction="sum") + F.cross_entropy(s.T, labels, reduction="sum")) / 2
    return _result(s, loss, image.dtype)


def labels_not_arange(image, text, temperature):
    s, labels = _parts(image, text, temperature)
    zeros = torch.zeros_like(labels)
    return _result(s, (F.cross_entropy(s, zeros) + F.cross_entropy(s.T, zeros)) / 2, image.dtype)


def accuracies_swapped(image, text, temperature):
    s, labels = _parts(image, text, temperature)
    return _result(s, (F.cross_entropy(s, labels) + F.cross_entropy(s.T, labels)) / 2, image.dtype,
                   swap_accuracies=True)


def naive_exp(image, text, temperature):
    image, text = F.normalize(image, dim=1), F.normalize(text, dim=1)  # in the inputs' dtype, as learners do
    s = image @ text.T / temperature
    e = torch.exp(s)
    loss = -(torch.log(e.diag() / e.sum(dim=1)).mean() + torch.log(e.diag() / e.sum(dim=0)).mean()) / 2
    return _result(s, loss, image.dtype)



def _symmetric(s, labels, **kwargs):
    return (F.cross_entropy(s, labels, **kwargs) + F.cross_entropy(s.T, labels, **kwargs)) / 2


def unstable_tie_break(image, text, temperature):
    """open_clip's metric: the right index's rank in argsort(descending=True), a sort that is not stable."""
    s, labels = _parts(image, text, temperature)
    result = _result(s, _symmetric(s, labels), image.dtype)
    for key, scores in (("image_to_text_accuracy", s), ("text_to_image_accuracy", s.T)):
        ranking = torch.argsort(scores, descending=True)
        result[key] = (torch.where(ranking == labels.view(-1, 1))[1] < 1).double().mean().item()
    return result


def label_smoothing(image, text, temperature):
    """open_clip and timm recipes smooth the labels (0.1); the contract's CE has hard labels."""
    s, labels = _parts(image, text, temperature)
    return _result(s, _symmetric(s, labels, label_smoothing=0.1), image.dtype)


def sigmoid_loss(image, text, temperature):
    """SigLIP's pairwise sigmoid loss (labels +1 on the diagonal, -1 elsewhere), not CLIP's softmax."""
    s, labels = _parts(image, text, temperature)
    signs = 2 * torch.eye(s.shape[0], dtype=s.dtype) - 1
    return _result(s, -F.logsigmoid(signs * s).sum() / s.shape[0], image.dtype)
