import torch
import torch.nn.functional as F


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2:
        raise ValueError("image_embeddings must be (M, D)")
    if prompt_embeddings.dim() != 3:
        raise ValueError("prompt_embeddings must be (K, P, D)")
    if image_embeddings.shape[1] != prompt_embeddings.shape[2]:
        raise ValueError("widths differ")
    if prompt_embeddings.shape[1] == 0:
        raise ValueError("need at least one prompt")
    zeroshot_weights = []
    for prompts in prompt_embeddings:
        prompts = prompts / prompts.norm(dim=-1, keepdim=True)
        zeroshot_weights.append(prompts.mean(dim=0))
    zeroshot_weights = torch.stack(zeroshot_weights)
    images = F.normalize(image_embeddings, dim=-1)
    logits = logit_scale * images @ zeroshot_weights.T
    return {"logits": logits, "probs": logits.softmax(-1), "predictions": logits.argmax(-1)}
