"""Soft targets: 0.9 on the matching pair plus 0.1 spread over all N classes (label smoothing 0.1)."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("expected two (N, D) tensors of the same shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    image = F.normalize(image_embeddings, dim=1)
    text = F.normalize(text_embeddings, dim=1)
    logits = image @ text.T / temperature
    n = logits.shape[0]
    targets = 0.9 * torch.eye(n, dtype=logits.dtype) + 0.1 / n
    loss_i = -(targets * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
    loss_t = -(targets * F.log_softmax(logits.T, dim=1)).sum(dim=1).mean()
    labels = torch.arange(n)
    return {"loss": (loss_i + loss_t) / 2, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(dim=1) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(dim=0) == labels).float().mean().item()}
