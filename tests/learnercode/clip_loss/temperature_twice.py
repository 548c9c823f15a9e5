import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    image = F.normalize(image_embeddings, dim=-1)
    text = F.normalize(text_embeddings, dim=-1)
    similarities = image @ text.T / temperature
    labels = torch.arange(similarities.size(0))
    logits = similarities / temperature
    loss_i = F.cross_entropy(logits, labels)
    loss_t = F.cross_entropy(logits.T, labels)
    return {"loss": (loss_i + loss_t) / 2, "similarities": similarities,
            "image_to_text_accuracy": (similarities.argmax(1) == labels).double().mean().item(),
            "text_to_image_accuracy": (similarities.argmax(0) == labels).double().mean().item()}
