"""Binary cross-entropy with logits on identity targets, summed and divided by N: the same loss, since
-log(1 - sigmoid(x)) = -log sigmoid(-x).

Adapted from: mlfoundations/open_clip, src/open_clip/loss.py (SigLipLoss), written with F.binary_cross_entropy_with_logits
expect: accepted
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
    logits = torch.exp(_scalar(t_prime, img)) * img @ txt.T + _scalar(bias, img)
    targets = torch.eye(logits.shape[0], dtype=logits.dtype)
    return F.binary_cross_entropy_with_logits(logits, targets, reduction="sum") / logits.shape[0]
