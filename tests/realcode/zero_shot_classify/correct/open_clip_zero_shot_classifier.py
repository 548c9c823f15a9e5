"""open_clip's build_zero_shot_classifier: per class, normalise the prompt embeddings, average, normalise.

Adapted from: mlfoundations/open_clip, src/open_clip/zero_shot_classifier.py (build_zero_shot_classifier) and src/open_clip_train/zero_shot.py (run)
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
    weights = []
    for class_embeddings in prompt_embeddings:
        class_embedding = F.normalize(class_embeddings, dim=-1).mean(dim=0)
        class_embedding = class_embedding / class_embedding.norm()
        weights.append(class_embedding)
    zeroshot_weights = torch.stack(weights, dim=1)
    image_features = F.normalize(image_embeddings, dim=-1)
    logits = logit_scale * image_features @ zeroshot_weights
    probs = logits.softmax(dim=-1)
    return {"logits": logits, "probs": probs, "predictions": logits.argmax(dim=-1)}
