import torch
import torch.nn.functional as F


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    if image_embeddings.ndim != 2 or text_embeddings.ndim != 2:
        raise ValueError("2-D embeddings expected")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("image and text shapes differ")
    zimg = F.normalize(image_embeddings, dim=1)
    ztxt = F.normalize(text_embeddings, dim=1)
    t = torch.exp(torch.as_tensor(t_prime, dtype=zimg.dtype))
    logits = zimg @ ztxt.T * t + bias
    n = logits.shape[0]
    z = -torch.ones(n, n, dtype=logits.dtype) + 2 * torch.eye(n, dtype=logits.dtype)
    return -torch.log(torch.sigmoid(z * logits)).sum() / n
