"""Only the image-to-text cross-entropy, as a one-sided retrieval loss.

Adapted from: mlfoundations/open_clip, src/open_clip/loss.py (ClipLoss.forward, the text term dropped)
expect: wrong_answer
mistake: one_direction
"""
import torch
import torch.nn.functional as F


def _check(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embeddings must be two (N, D) tensors of one shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    _check(image_embeddings, text_embeddings, temperature)
    logits_per_image = F.normalize(image_embeddings, dim=-1) @ F.normalize(text_embeddings, dim=-1).T / temperature
    labels = torch.arange(logits_per_image.shape[0])
    loss = F.cross_entropy(logits_per_image, labels)
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)
    i2t = (logits_per_image.argmax(dim=1) == labels).double().mean().item()
    t2i = (logits_per_image.argmax(dim=0) == labels).double().mean().item()
    return {"loss": loss, "similarities": logits_per_image, "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
