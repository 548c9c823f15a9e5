import torch
import torch.nn.functional as F


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    img = F.normalize(image_embeddings, dim=-1)
    txt = F.normalize(text_embeddings, dim=-1)
    logits = img @ txt.T * t_prime + bias
    n = logits.shape[0]
    labels = 2 * torch.eye(n, dtype=logits.dtype) - 1
    return -F.logsigmoid(labels * logits).sum() / n
