"""The log-temperature used directly as the scale: logits = t_prime * cos + bias, no exp.

Adapted from: mlfoundations/open_clip, src/open_clip/loss.py (SigLipLoss.get_logits with logit_scale passed before .exp())
expect: wrong_answer
mistake: t_prime_used_as_t
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
    img, txt = F.normalize(image_embeddings, dim=-1), F.normalize(text_embeddings, dim=-1)
    logits = _scalar(t_prime, img) * img @ txt.T + _scalar(bias, img)
    labels = 2 * torch.eye(logits.shape[0], dtype=logits.dtype) - 1
    return -F.logsigmoid(labels * logits).sum() / img.shape[0]
