import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.ndim != 2 or prompt_embeddings.ndim != 3:
        raise ValueError("image_embeddings must be 2-D and prompt_embeddings 3-D")
    if image_embeddings.shape[-1] != prompt_embeddings.shape[-1]:
        raise ValueError("D differs")
    if prompt_embeddings.shape[1] == 0:
        raise ValueError("P must be > 0")
    weights = F.normalize(prompt_embeddings, dim=-1).mean(dim=1)
    weights = F.normalize(weights, dim=-1)
    logits = logit_scale * image_embeddings @ weights.T
    probs = torch.softmax(logits, dim=1)
    return {"logits": logits, "probs": probs, "predictions": torch.argmax(logits, dim=1)}
