"""Trusted reference for `clip_loss`: symmetric cross-entropy over cosine similarities.

Computed in float64 and returned in the inputs' dtype, so expected values
carry no float32 rounding of their own: a learner's float32 result is compared
against the exact value, not against one particular float32 order.
"""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    for name, x in (("image_embeddings", image_embeddings), ("text_embeddings", text_embeddings)):
        if not isinstance(x, torch.Tensor) or x.dim() != 2 or not x.is_floating_point():
            raise ValueError(f"{name} must be a 2-D float tensor (N, D)")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError(f"shapes differ: {tuple(image_embeddings.shape)} vs {tuple(text_embeddings.shape)}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not temperature > 0:
        raise ValueError(f"temperature must be a number > 0, got {temperature!r}")
    dtype = image_embeddings.dtype
    image = F.normalize(image_embeddings.double(), dim=1, eps=1e-12)
    text = F.normalize(text_embeddings.double(), dim=1, eps=1e-12)
    similarities = image @ text.T / temperature
    labels = torch.arange(similarities.shape[0])
    loss = (F.cross_entropy(similarities, labels) + F.cross_entropy(similarities.T, labels)) / 2
    return {
        "loss": loss.to(dtype),
        "similarities": similarities.to(dtype),
        # Python floats: the structure check then accepts a float or a 0-dim tensor.
        "image_to_text_accuracy": (similarities.argmax(dim=1) == labels).double().mean().item(),
        "text_to_image_accuracy": (similarities.argmax(dim=0) == labels).double().mean().item(),
    }
