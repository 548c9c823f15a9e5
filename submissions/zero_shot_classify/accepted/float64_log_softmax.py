import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2:
        raise ValueError("images must be 2-D")
    if prompt_embeddings.dim() != 3 or prompt_embeddings.size(1) < 1:
        raise ValueError("prompts must be (K, P, D) with P >= 1")
    if image_embeddings.size(1) != prompt_embeddings.size(2):
        raise ValueError("D mismatch")
    dtype = image_embeddings.dtype
    prompts = prompt_embeddings.double()
    prompts = prompts / prompts.norm(dim=2, keepdim=True).clamp(min=1e-12)
    weights = prompts.sum(dim=1) / prompts.size(1)
    weights = weights / weights.norm(dim=1, keepdim=True).clamp(min=1e-12)
    images = image_embeddings.double()
    images = images / images.norm(dim=1, keepdim=True).clamp(min=1e-12)
    logits = float(logit_scale) * images @ weights.T
    return {"logits": logits.to(dtype), "probs": F.log_softmax(logits, dim=1).exp().to(dtype),
            "predictions": logits.max(dim=1).indices}
