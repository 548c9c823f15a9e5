import torch
import torch.nn.functional as F


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    img = F.normalize(image_embeddings, dim=-1)
    txt = F.normalize(text_embeddings, dim=-1)
    t = torch.exp(torch.as_tensor(t_prime, dtype=img.dtype))
    logits = t * img @ txt.T + bias
    targets = torch.eye(logits.shape[0], dtype=logits.dtype)
    return F.binary_cross_entropy_with_logits(logits, targets)
