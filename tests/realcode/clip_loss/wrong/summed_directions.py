"""Both cross-entropies added without the final / 2.

Adapted from: huggingface/transformers, src/transformers/models/clip/modeling_clip.py (clip_loss without the / 2.0)
expect: wrong_answer
mistake: directions_summed
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
    image_embeds = F.normalize(image_embeddings, dim=-1)
    text_embeds = F.normalize(text_embeddings, dim=-1)
    logits_per_text = text_embeds @ image_embeds.t() / temperature
    logits_per_image = logits_per_text.t()
    labels = torch.arange(len(logits_per_image))
    loss = F.cross_entropy(logits_per_text, labels) + F.cross_entropy(logits_per_image, labels)
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)
    i2t = (logits_per_image.argmax(dim=1) == labels).double().mean().item()
    t2i = (logits_per_image.argmax(dim=0) == labels).double().mean().item()
    return {"loss": loss, "similarities": logits_per_image, "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
