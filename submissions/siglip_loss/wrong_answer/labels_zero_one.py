import torch
import torch.nn.functional as F


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("expected two (N, D) tensors of the same shape")
    img = F.normalize(image_embeddings, dim=1)
    txt = F.normalize(text_embeddings, dim=1)
    logits = torch.exp(torch.as_tensor(t_prime, dtype=img.dtype)) * img @ txt.T + bias
    n = logits.shape[0]
    labels = torch.eye(n, dtype=logits.dtype)   # 1 for matching pairs, 0 otherwise
    return -F.logsigmoid(labels * logits).sum() / n
