import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2 or prompt_embeddings.dim() != 3:
        raise ValueError("bad shapes")
    if image_embeddings.shape[1] != prompt_embeddings.shape[2]:
        raise ValueError("widths differ")
    if prompt_embeddings.shape[1] == 0:
        raise ValueError("no prompts")
    classes = F.normalize(prompt_embeddings[:, 0, :], dim=-1)
    images = F.normalize(image_embeddings, dim=-1)
    logits = logit_scale * images @ classes.T
    probs = F.softmax(logits, dim=0)
    return {"logits": logits, "probs": probs, "predictions": logits.argmax(dim=1)}
