"""Hugging Face's contrastive_loss / clip_loss: cross-entropy of the logits and of their transpose.

Adapted from: huggingface/transformers, src/transformers/models/clip/modeling_clip.py (contrastive_loss, clip_loss, CLIPModel.forward)
expect: accepted
"""
import torch
import torch.nn.functional as F


def _check(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embeddings must be two (N, D) tensors of one shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def contrastive_loss(logits):
    return F.cross_entropy(logits, torch.arange(len(logits), device=logits.device))


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    _check(image_embeddings, text_embeddings, temperature)
    image_embeds = image_embeddings / image_embeddings.norm(p=2, dim=-1, keepdim=True).clamp_min(1e-12)
    text_embeds = text_embeddings / text_embeddings.norm(p=2, dim=-1, keepdim=True).clamp_min(1e-12)
    logits_per_text = torch.matmul(text_embeds, image_embeds.t()) / temperature
    logits_per_image = logits_per_text.t()
    loss = (contrastive_loss(logits_per_text) + contrastive_loss(logits_per_image)) / 2.0
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)
    i2t = (logits_per_image.argmax(dim=1) == labels).double().mean().item()
    t2i = (logits_per_image.argmax(dim=0) == labels).double().mean().item()
    return {"loss": loss, "similarities": logits_per_image, "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
