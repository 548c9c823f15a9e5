"""open_clip's retrieval metric: the rank of the right text from argsort(descending=True).

The sort is not stable, so among tied similarities the right text may come
first where torch.argmax would pick a lower index: from N = 17 up the
accuracies differ on ties.
"""
import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("expected two (N, D) tensors of the same shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    image = F.normalize(image_embeddings, dim=-1)
    text = F.normalize(text_embeddings, dim=-1)
    logits = image @ text.T / temperature
    labels = torch.arange(logits.shape[0])
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
    accuracies = []
    for scores in (logits, logits.T):
        ranking = torch.argsort(scores, descending=True)
        preds = torch.where(ranking == labels.view(-1, 1))[1]
        accuracies.append((preds < 1).float().mean().item())
    return {"loss": loss, "similarities": logits, "image_to_text_accuracy": accuracies[0],
            "text_to_image_accuracy": accuracies[1]}
