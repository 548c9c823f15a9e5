import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    weights = F.normalize(F.normalize(prompt_embeddings, dim=-1).mean(dim=-2), dim=-1)
    logits = logit_scale * F.normalize(image_embeddings, dim=-1) @ weights.transpose(-1, -2)
    return {"logits": logits, "probs": logits.softmax(dim=-1), "predictions": logits.argmax(dim=-1)}
