import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    logits = image_embeddings @ text_embeddings.T / temperature
    targets = torch.arange(logits.shape[0])
    loss = F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(1) == targets).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(0) == targets).float().mean().item()}
