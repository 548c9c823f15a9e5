"""SigLIP's pairwise sigmoid loss (every pair a binary decision, summed and divided by N) in place of CLIP's."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("expected two (N, D) tensors of the same shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    logits = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T / temperature
    n = logits.shape[0]
    signs = torch.where(torch.eye(n, dtype=torch.bool), 1.0, -1.0).to(logits.dtype)
    loss = F.softplus(-signs * logits).sum() / n
    labels = torch.arange(n)
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(dim=1) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(dim=0) == labels).float().mean().item()}
