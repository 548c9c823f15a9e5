"""open_clip's SigLipLoss on one device: labels 2 * eye - 1, -logsigmoid(labels * logits).sum() / N.

Adapted from: mlfoundations/open_clip, src/open_clip/loss.py (SigLipLoss.get_ground_truth, get_logits, _loss)
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
    image_features = F.normalize(image_embeddings, dim=-1)
    text_features = F.normalize(text_embeddings, dim=-1)
    logit_scale = torch.exp(_scalar(t_prime, image_features))
    logit_bias = _scalar(bias, image_features)
    logits = logit_scale * image_features @ text_features.T + logit_bias
    n = logits.shape[0]
    labels = 2 * torch.eye(n, dtype=logits.dtype) - torch.ones(n, n, dtype=logits.dtype)
    return -F.logsigmoid(labels * logits).sum() / image_features.shape[0]
