"""A timm-style recipe: cross-entropy with label smoothing 0.1."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or not temperature > 0:
        raise ValueError("bad input")
    logits = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T / temperature
    labels = torch.arange(len(logits))
    loss = (F.cross_entropy(logits, labels, label_smoothing=0.1)
            + F.cross_entropy(logits.T, labels, label_smoothing=0.1)) / 2
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(1) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(0) == labels).float().mean().item()}
