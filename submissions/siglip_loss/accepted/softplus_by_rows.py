import math

import torch


def _unit(x):
    return x / x.norm(dim=1, keepdim=True).clamp_min(1e-12)


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    if len(image_embeddings.shape) != 2 or tuple(image_embeddings.shape) != tuple(text_embeddings.shape):
        raise ValueError("image and text embeddings must both be (N, D)")
    img, txt = _unit(image_embeddings), _unit(text_embeddings)
    t = t_prime.exp() if isinstance(t_prime, torch.Tensor) else math.exp(t_prime)
    n = img.shape[0]
    total = img.new_zeros(())
    for i in range(n):
        row = t * (txt @ img[i]) + bias           # image i against every text
        sign = -torch.ones_like(row)
        sign[i] = 1.0
        x = sign * row
        # -log sigmoid(x) = softplus(-x) = max(-x, 0) + log1p(exp(-|x|)), never exp of a large number
        total = total + (torch.clamp(-x, min=0) + torch.log1p(torch.exp(-x.abs()))).sum()
    return total / n
