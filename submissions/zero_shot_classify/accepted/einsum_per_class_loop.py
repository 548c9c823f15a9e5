import torch


def _unit(x: torch.Tensor) -> torch.Tensor:
    return x / torch.linalg.vector_norm(x, dim=-1, keepdim=True).clamp_min(1e-12)


def zero_shot_classify(image_embeddings: torch.Tensor, prompt_embeddings: torch.Tensor, logit_scale: float) -> dict:
    """Class weights built one class at a time, as open_clip's zero-shot classifier does."""
    if image_embeddings.ndim != 2:
        raise ValueError("image_embeddings must be (M, D)")
    if prompt_embeddings.ndim != 3:
        raise ValueError("prompt_embeddings must be (K, P, D)")
    num_classes, num_prompts, width = prompt_embeddings.shape
    if num_prompts == 0:
        raise ValueError("each class needs at least one prompt")
    if image_embeddings.shape[1] != width:
        raise ValueError("image and prompt embeddings have different widths")
    weights = []
    for k in range(num_classes):
        class_embedding = _unit(prompt_embeddings[k]).mean(dim=0)
        weights.append(_unit(class_embedding))
    weights = torch.stack(weights)
    logits = logit_scale * torch.einsum("md,kd->mk", _unit(image_embeddings), weights)
    probs = torch.softmax(logits, dim=1)
    return {"logits": logits, "probs": probs, "predictions": torch.argmax(logits, dim=1)}
