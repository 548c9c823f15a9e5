"""Computes in float64 for stability and forgets to cast the loss back to the inputs' dtype."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or not temperature > 0:
        raise ValueError("bad input")
    logits = F.normalize(image_embeddings.double(), dim=1) @ F.normalize(text_embeddings.double(), dim=1).T
    logits = logits / temperature
    labels = torch.arange(len(logits))
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
    return {"loss": loss, "similarities": logits.to(image_embeddings.dtype),
            "image_to_text_accuracy": (logits.argmax(1) == labels).double().mean().item(),
            "text_to_image_accuracy": (logits.argmax(0) == labels).double().mean().item()}
