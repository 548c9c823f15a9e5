"""open_clip clamps its logit scale at 100: here 1 / temperature is clamped the same way."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or not temperature > 0:
        raise ValueError("bad input")
    scale = min(1.0 / temperature, 100.0)
    logits = scale * F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T
    labels = torch.arange(len(logits))
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(1) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(0) == labels).float().mean().item()}
