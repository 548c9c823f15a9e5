"""Hand-written log-softmax in both directions; norms divided after the product."""
import torch


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.ndim != 2 or text_embeddings.ndim != 2:
        raise ValueError("inputs must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("image and text embeddings must have the same shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    image_norm = image_embeddings.norm(dim=1).clamp_min(1e-12)
    text_norm = text_embeddings.norm(dim=1).clamp_min(1e-12)
    cosine = (image_embeddings @ text_embeddings.T) / image_norm[:, None] / text_norm[None, :]
    s = cosine / temperature
    n = s.shape[0]
    diagonal = s.diagonal()

    def logsumexp(x, dim):
        top = x.max(dim=dim, keepdim=True).values.detach()
        return (top + (x - top).exp().sum(dim=dim, keepdim=True).log()).squeeze(dim)

    image_to_text = (logsumexp(s, 1) - diagonal).mean()
    text_to_image = (logsumexp(s, 0) - diagonal).mean()
    index = torch.arange(n)
    return {
        "loss": 0.5 * (image_to_text + text_to_image),
        "similarities": s,
        "image_to_text_accuracy": float((s.argmax(1) == index).sum()) / n,
        "text_to_image_accuracy": float((s.argmax(0) == index).sum()) / n,
    }
