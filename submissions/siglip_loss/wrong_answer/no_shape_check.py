import torch
import torch.nn.functional as F


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    img = F.normalize(image_embeddings, dim=-1)
    txt = F.normalize(text_embeddings, dim=-1)
    logits = torch.exp(torch.as_tensor(t_prime, dtype=img.dtype)) * img @ txt.transpose(-1, -2) + bias
    n = logits.shape[-2]
    labels = 2 * torch.eye(n, logits.shape[-1], dtype=logits.dtype) - 1
    return -F.logsigmoid(labels * logits).sum() / n
