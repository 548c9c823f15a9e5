"""Trusted reference for `zero_shot_classify`: CLIP zero-shot with prompt ensembling.

Computed in float64 and returned in the inputs' dtype; predictions come from
the float64 logits (hidden tests keep the top two classes well apart, and
build exact ties from bit-identical scores).
"""
import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if not isinstance(image_embeddings, torch.Tensor) or image_embeddings.dim() != 2:
        raise ValueError("image_embeddings must be a 2-D tensor (M, D)")
    if not isinstance(prompt_embeddings, torch.Tensor) or prompt_embeddings.dim() != 3:
        raise ValueError("prompt_embeddings must be a 3-D tensor (K, P, D)")
    if image_embeddings.shape[1] != prompt_embeddings.shape[2]:
        raise ValueError(f"embedding widths differ: {image_embeddings.shape[1]} vs {prompt_embeddings.shape[2]}")
    if prompt_embeddings.shape[1] == 0:
        raise ValueError("every class needs at least one prompt (P = 0)")
    dtype = image_embeddings.dtype
    prompts = F.normalize(prompt_embeddings.double(), dim=-1, eps=1e-12)
    weights = F.normalize(prompts.mean(dim=1), dim=-1, eps=1e-12)
    images = F.normalize(image_embeddings.double(), dim=-1, eps=1e-12)
    logits = float(logit_scale) * images @ weights.T
    return {"logits": logits.to(dtype), "probs": torch.softmax(logits, dim=1).to(dtype),
            "predictions": logits.argmax(dim=1)}
