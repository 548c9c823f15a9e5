import torch
import torch.nn.functional as F


def siglip_loss(image_embeddings: torch.Tensor, text_embeddings: torch.Tensor, t_prime, bias) -> torch.Tensor:
    """Binary cross-entropy with {0, 1} targets equals -log sigmoid(+-logits)."""
    if image_embeddings.ndim != 2 or text_embeddings.ndim != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embedding shapes differ")
    dtype = image_embeddings.dtype
    if not isinstance(t_prime, torch.Tensor):
        t_prime = torch.tensor(t_prime, dtype=dtype)
    if not isinstance(bias, torch.Tensor):
        bias = torch.tensor(bias, dtype=dtype)
    img = F.normalize(image_embeddings.double(), dim=-1)
    txt = F.normalize(text_embeddings.double(), dim=-1)
    logits = t_prime.double().exp() * (img @ txt.t()) + bias.double()
    targets = torch.eye(logits.size(0), dtype=torch.float64)
    loss = F.binary_cross_entropy_with_logits(logits, targets, reduction="sum") / logits.size(0)
    return loss.to(dtype)
