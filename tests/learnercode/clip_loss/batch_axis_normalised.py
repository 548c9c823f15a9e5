import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    img = F.normalize(image_embeddings, p=2, dim=0)
    txt = F.normalize(text_embeddings, p=2, dim=0)
    sims = img @ txt.T / temperature
    labels = torch.arange(sims.shape[0])
    loss = 0.5 * (F.cross_entropy(sims, labels) + F.cross_entropy(sims.T, labels))
    return {"loss": loss, "similarities": sims,
            "image_to_text_accuracy": (sims.argmax(dim=1) == labels).float().mean().item(),
            "text_to_image_accuracy": (sims.argmax(dim=0) == labels).float().mean().item()}
