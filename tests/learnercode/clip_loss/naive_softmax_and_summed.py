import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or text_embeddings.dim() != 2:
        raise ValueError("embeddings must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    img = F.normalize(image_embeddings, dim=1)
    txt = F.normalize(text_embeddings, dim=1)
    sim = img @ txt.T / temperature
    n = sim.shape[0]
    e = torch.exp(sim)
    p_i2t = e / e.sum(dim=1, keepdim=True)
    p_t2i = e / e.sum(dim=0, keepdim=True)
    diag = torch.arange(n)
    loss_i2t = -torch.log(p_i2t[diag, diag]).sum()
    loss_t2i = -torch.log(p_t2i[diag, diag]).sum()
    labels = torch.arange(n)
    return {"loss": (loss_i2t + loss_t2i) / 2, "similarities": sim,
            "image_to_text_accuracy": (sim.argmax(1) == labels).float().mean().item(),
            "text_to_image_accuracy": (sim.argmax(0) == labels).float().mean().item()}
