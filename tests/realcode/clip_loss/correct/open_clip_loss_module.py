"""open_clip's ClipLoss module itself on normalised features, logit_scale = 1 / temperature; accuracies from its logits.

Adapted from: mlfoundations/open_clip, src/training/train.py (train_one_epoch: features normalised, loss = ClipLoss()(image_features, text_features, logit_scale)) and src/open_clip/loss.py (ClipLoss.get_logits)
expect: accepted
"""
import torch
import torch.nn.functional as F
from open_clip.loss import ClipLoss

loss_fn = ClipLoss()


def _check(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embeddings must be two (N, D) tensors of one shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    _check(image_embeddings, text_embeddings, temperature)
    image_features = F.normalize(image_embeddings, dim=-1)
    text_features = F.normalize(text_embeddings, dim=-1)
    logit_scale = 1.0 / temperature
    loss = loss_fn(image_features, text_features, logit_scale)
    logits_per_image, _ = loss_fn.get_logits(image_features, text_features, logit_scale)
    labels = torch.arange(logits_per_image.shape[0])
    i2t = (logits_per_image.argmax(dim=1) == labels).float().mean().item()
    t2i = (logits_per_image.argmax(dim=0) == labels).float().mean().item()
    return {"loss": loss, "similarities": logits_per_image.detach(), "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
