import torch


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2 or prompt_embeddings.dim() != 3:
        raise ValueError("expected images (M, D) and prompts (K, P, D)")
    if image_embeddings.shape[-1] != prompt_embeddings.shape[-1] or prompt_embeddings.shape[1] == 0:
        raise ValueError("widths differ or no prompt templates")
    prompts = prompt_embeddings / (prompt_embeddings.norm(dim=-1, keepdim=True) + 1e-6)
    weights = prompts.mean(dim=1)
    weights = weights / (weights.norm(dim=-1, keepdim=True) + 1e-6)
    images = image_embeddings / (image_embeddings.norm(dim=-1, keepdim=True) + 1e-6)
    logits = logit_scale * images @ weights.T
    return {"logits": logits, "probs": logits.softmax(dim=-1), "predictions": logits.argmax(dim=-1)}
