import torch


def zero_shot_classify(image_embeddings, prompt_embeddings, logit_scale):
    if image_embeddings.dim() != 2 or prompt_embeddings.dim() != 3:
        raise ValueError("bad shapes")
    if image_embeddings.shape[1] != prompt_embeddings.shape[2]:
        raise ValueError("widths differ")
    if prompt_embeddings.shape[1] < 1:
        raise ValueError("no prompts")
    text = prompt_embeddings.mean(dim=1)
    text = text / text.norm(dim=1, keepdim=True)
    logits = logit_scale * image_embeddings @ text.T
    return {"logits": logits, "probs": torch.softmax(logits, dim=1), "predictions": logits.argmax(dim=1)}
