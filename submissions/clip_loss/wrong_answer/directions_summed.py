import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or temperature <= 0:
        raise ValueError("bad input")
    logits = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T / temperature
    labels = torch.arange(logits.shape[0])
    loss = F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)   # mistake: no / 2
    labels_ = torch.arange(logits.shape[0])
    return {"loss": loss, "similarities": logits,
            "image_to_text_accuracy": (logits.argmax(1) == labels_).float().mean(),
            "text_to_image_accuracy": (logits.argmax(0) == labels_).float().mean()}
