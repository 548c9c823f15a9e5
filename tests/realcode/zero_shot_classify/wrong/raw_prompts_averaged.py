"""The raw prompt embeddings averaged first, normalised once afterwards.

Adapted from: openai/CLIP, notebooks/Prompt_Engineering_for_ImageNet.ipynb (the per-prompt normalisation moved after the mean)
expect: wrong_answer
mistake: unnormalised_prompts_averaged
"""
import torch
import torch.nn.functional as F


def _check(image_embeddings, prompt_embeddings):
    if image_embeddings.dim() != 2 or prompt_embeddings.dim() != 3:
        raise ValueError("images (M, D) and prompts (K, P, D)")
    if image_embeddings.shape[1] != prompt_embeddings.shape[2]:
        raise ValueError("embedding widths differ")
    if prompt_embeddings.shape[1] == 0:
        raise ValueError("every class needs at least one prompt")


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    _check(image_embeddings, prompt_embeddings)
    weights = F.normalize(prompt_embeddings.mean(dim=1), dim=-1)
    logits = logit_scale * F.normalize(image_embeddings, dim=-1) @ weights.T
    probs = logits.softmax(dim=-1)
    return {"logits": logits, "probs": probs, "predictions": logits.argmax(dim=-1)}
