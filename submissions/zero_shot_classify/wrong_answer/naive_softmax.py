import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2 or prompt_embeddings.dim() != 3:
        raise ValueError("expected images (M, D) and prompts (K, P, D)")
    if image_embeddings.shape[-1] != prompt_embeddings.shape[-1] or prompt_embeddings.shape[1] == 0:
        raise ValueError("widths differ or no prompt templates")
    weights = F.normalize(F.normalize(prompt_embeddings, dim=-1).mean(dim=1), dim=-1)
    logits = logit_scale * F.normalize(image_embeddings, dim=-1) @ weights.T
    exp = torch.exp(logits)
    return {"logits": logits, "probs": exp / exp.sum(dim=1, keepdim=True), "predictions": logits.argmax(dim=-1)}
