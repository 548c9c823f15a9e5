import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2 or prompt_embeddings.dim() != 3:
        raise ValueError("bad input dims")
    if image_embeddings.shape[1] != prompt_embeddings.shape[2]:
        raise ValueError("embedding widths differ")
    if prompt_embeddings.shape[1] == 0:
        raise ValueError("no prompts")
    class_embeddings = prompt_embeddings.mean(dim=1)
    class_embeddings = class_embeddings / class_embeddings.norm(dim=-1, keepdim=True)
    images = image_embeddings / image_embeddings.norm(dim=-1, keepdim=True)
    logits = logit_scale * images @ class_embeddings.T
    return {"logits": logits, "probs": logits.softmax(dim=-1), "predictions": logits.argmax(dim=-1)}
