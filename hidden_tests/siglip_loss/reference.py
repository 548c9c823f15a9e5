"""Trusted reference for `siglip_loss`: SigLIP's pairwise sigmoid loss.

Computed in float64 (embeddings, t = exp(t_prime) and bias alike) and returned
in the embeddings' dtype; `F.logsigmoid` keeps it finite for any logit.
"""
import torch
import torch.nn.functional as F


def _parameter(value, name):
    if isinstance(value, torch.Tensor):
        if value.dim() != 0 or not value.is_floating_point():
            raise ValueError(f"{name} must be a float or a 0-dim float tensor")
        return value.double()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a float or a 0-dim float tensor, got {type(value).__name__}")
    return torch.tensor(float(value), dtype=torch.float64)


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    for name, x in (("image_embeddings", image_embeddings), ("text_embeddings", text_embeddings)):
        if not isinstance(x, torch.Tensor) or x.dim() != 2 or not x.is_floating_point():
            raise ValueError(f"{name} must be a 2-D float tensor (N, D)")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError(f"shapes differ: {tuple(image_embeddings.shape)} vs {tuple(text_embeddings.shape)}")
    image = F.normalize(image_embeddings.double(), dim=1, eps=1e-12)
    text = F.normalize(text_embeddings.double(), dim=1, eps=1e-12)
    logits = torch.exp(_parameter(t_prime, "t_prime")) * (image @ text.T) + _parameter(bias, "bias")
    n = logits.shape[0]
    labels = 2 * torch.eye(n, dtype=torch.float64) - 1
    return (-F.logsigmoid(labels * logits).sum() / n).to(image_embeddings.dtype)
