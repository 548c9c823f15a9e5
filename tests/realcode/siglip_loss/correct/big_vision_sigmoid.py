"""big_vision's sigmoid loss: z = 2 * eye - 1, mean over images of the row sums of -log_sigmoid(z * logits).

Adapted from: google-research/big_vision, big_vision/trainers/proj/image_text/siglip.py (loss_fn), in torch
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
    zimg = image_embeddings / image_embeddings.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    ztxt = text_embeddings / text_embeddings.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    t = _scalar(t_prime, zimg).exp()
    logits = torch.einsum("id,jd->ij", zimg, ztxt) * t + _scalar(bias, zimg)
    eye = torch.eye(zimg.shape[0], dtype=zimg.dtype)
    m1_diag1 = -torch.ones_like(logits) + 2 * eye
    loglik = F.logsigmoid(m1_diag1 * logits)
    nll = -torch.sum(loglik, dim=-1)
    return nll.mean()
