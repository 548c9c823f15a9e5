import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    img = F.normalize(image_embeddings, dim=1)
    txt = F.normalize(text_embeddings, dim=1)
    logits = img @ txt.T * temperature
    labels = torch.arange(logits.shape[0])
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(dim=1) == labels).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(dim=0) == labels).float().mean().item()}
