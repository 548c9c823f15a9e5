"""The CLIP paper's pseudocode with np.exp(t) read as the temperature itself: logits times tau.

Adapted from: openai/CLIP, the paper's Figure 3 pseudocode (logits = dot(I_e, T_e.T) * np.exp(t)), t taken as the temperature
expect: wrong_answer
mistake: times_temperature
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
    i_e = F.normalize(image_embeddings, dim=1)
    t_e = F.normalize(text_embeddings, dim=1)
    logits_per_image = i_e @ t_e.T * temperature
    labels = torch.arange(len(logits_per_image))
    loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_image.T, labels)) / 2
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)
    i2t = (logits_per_image.argmax(dim=1) == labels).double().mean().item()
    t2i = (logits_per_image.argmax(dim=0) == labels).double().mean().item()
    return {"loss": loss, "similarities": logits_per_image, "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
