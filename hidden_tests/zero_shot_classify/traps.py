"""Known mistakes for `zero_shot_classify`, each a complete solution with one classic error.

Computed in float64 like the reference and returned in the inputs' dtype.
"""
import torch
import torch.nn.functional as F


def _classify(images, weights, scale, dtype, normalise_images=True, class_axis=1):
    if normalise_images:
        images = F.normalize(images, dim=-1)
    logits = float(scale) * images @ weights.T
    return {"logits": logits.to(dtype), "probs": torch.softmax(logits, dim=class_axis).to(dtype),
            "predictions": logits.argmax(dim=class_axis)}


def _weights(prompts):
    return F.normalize(F.normalize(prompts.double(), dim=-1).mean(dim=1), dim=-1)


def unnormalised_prompts_averaged(images, prompts, scale):
    weights = F.normalize(prompts.double().mean(dim=1), dim=-1)
    return _classify(images.double(), weights, scale, images.dtype)


def average_not_renormalised(images, prompts, scale):
    weights = F.normalize(prompts.double(), dim=-1).mean(dim=1)
    return _classify(images.double(), weights, scale, images.dtype)


def softmax_over_images(images, prompts, scale):
    out = _classify(images.double(), _weights(prompts), scale, images.dtype)
    logits = out["logits"].double()
    return {**out, "probs": torch.softmax(logits, dim=0).to(images.dtype)}


def images_not_normalised(images, prompts, scale):
    return _classify(images.double(), _weights(prompts), scale, images.dtype, normalise_images=False)


def argmax_over_images(images, prompts, scale):
    out = _classify(images.double(), _weights(prompts), scale, images.dtype)
    return {**out, "predictions": out["logits"].double().argmax(dim=0)}


def first_prompt_only(images, prompts, scale):
    weights = F.normalize(prompts[:, 0].double(), dim=-1)
    return _classify(images.double(), weights, scale, images.dtype)
