"""big_vision's formula with z = eye (0 and 1) where it needs 2 * eye - 1 (1 and -1).

Adapted from: google-research/big_vision, big_vision/trainers/proj/image_text/siglip.py (loss_fn: m1_diag1 replaced by jnp.eye)
expect: wrong_answer
mistake: labels_zero_one
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
    z = torch.eye(len(logits), dtype=logits.dtype)
    return -F.logsigmoid(z * logits).sum(dim=-1).mean()
