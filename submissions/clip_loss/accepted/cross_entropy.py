import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("expected two (N, D) tensors of the same shape")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    image = F.normalize(image_embeddings, dim=1)
    text = F.normalize(text_embeddings, dim=1)
    logits = image @ text.t() / temperature
    labels = torch.arange(logits.shape[0], device=logits.device)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    return {
        "loss": loss,
        "similarities": logits,
        "image_to_text_accuracy": (logits.argmax(dim=1) == labels).float().mean(),
        "text_to_image_accuracy": (logits.argmax(dim=0) == labels).float().mean(),
    }
