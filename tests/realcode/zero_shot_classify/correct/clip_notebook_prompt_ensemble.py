"""The CLIP prompt-engineering notebook's zeroshot_classifier, written with norms and in-graph divisions.

Adapted from: openai/CLIP, notebooks/Prompt_Engineering_for_ImageNet.ipynb (zeroshot_classifier, logits = 100. * image_features @ zeroshot_weights)
expect: accepted
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
    class_embeddings = prompt_embeddings / prompt_embeddings.norm(dim=-1, keepdim=True)
    class_embedding = class_embeddings.mean(dim=1)
    zeroshot_weights = class_embedding / class_embedding.norm(dim=-1, keepdim=True)
    image_features = image_embeddings / image_embeddings.norm(dim=-1, keepdim=True)
    logits = logit_scale * image_features @ zeroshot_weights.T
    probs = logits.softmax(dim=-1)
    return {"logits": logits, "probs": probs, "predictions": logits.argmax(dim=-1)}
