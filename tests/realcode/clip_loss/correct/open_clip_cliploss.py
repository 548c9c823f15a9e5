"""open_clip's ClipLoss on one device: logit_scale = 1 / temperature, F.cross_entropy both ways, averaged.

Adapted from: mlfoundations/open_clip, src/open_clip/loss.py (ClipLoss.get_logits, ClipLoss.forward)
expect: accepted
"""
import torch
import torch.nn.functional as F


def _check(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embeddings must be two (N, D) tensors of one shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    _check(image_embeddings, text_embeddings, temperature)
    image_features = F.normalize(image_embeddings, dim=-1)
    text_features = F.normalize(text_embeddings, dim=-1)
    logit_scale = 1.0 / temperature
    logits_per_image = logit_scale * image_features @ text_features.T
    logits_per_text = logit_scale * text_features @ image_features.T
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device, dtype=torch.long)
    loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)
    i2t = (logits_per_image.argmax(dim=1) == labels).double().mean().item()
    t2i = (logits_per_image.argmax(dim=0) == labels).double().mean().item()
    return {"loss": loss, "similarities": logits_per_image, "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
