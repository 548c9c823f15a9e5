"""The pairwise losses averaged over all N^2 pairs (reduction="mean") instead of summed and divided by N.

Adapted from: google-research/big_vision, big_vision/trainers/proj/image_text/siglip.py (loss_fn with jnp.mean over both axes)
expect: wrong_answer
mistake: divided_by_n_squared
"""
import torch
import torch.nn.functional as F


def _check(image_embeddings, text_embeddings):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embeddings must be two (N, D) tensors of one shape")


def _scalar(v, like):
    return v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=like.dtype)


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    _check(image_embeddings, text_embeddings)
    zimg, ztxt = F.normalize(image_embeddings, dim=-1), F.normalize(text_embeddings, dim=-1)
    logits = zimg @ ztxt.T * torch.exp(_scalar(t_prime, zimg)) + _scalar(bias, zimg)
    z = 2 * torch.eye(len(logits), dtype=logits.dtype) - 1
    return -F.logsigmoid(z * logits).mean()
