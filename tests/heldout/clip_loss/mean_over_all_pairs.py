"""Cross-entropy summed per row, then divided by N * N (every pair) instead of N."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or not temperature > 0:
        raise ValueError("bad input")
    logits = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T / temperature
    n = len(logits)
    labels = torch.arange(n)
    total = F.cross_entropy(logits, labels, reduction="sum") + F.cross_entropy(logits.T, labels, reduction="sum")
    return {"loss": total / (2 * n * n), "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(1) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(0) == labels).float().mean().item()}
