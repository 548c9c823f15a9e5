"""One template per class ("a photo of a {}."), as CLIP's README example: the ensemble ignored.

Adapted from: openai/CLIP, README.md (zero-shot prediction with one prompt per class)
expect: wrong_answer
mistake: first_prompt_only
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
    text_features = F.normalize(prompt_embeddings[:, 0], dim=-1)
    image_features = F.normalize(image_embeddings, dim=-1)
    logits = logit_scale * image_features @ text_features.T
    probs = logits.softmax(dim=-1)
    return {"logits": logits, "probs": probs, "predictions": logits.argmax(dim=-1)}
