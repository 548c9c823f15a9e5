import torch
import torch.nn.functional as F


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.ndim != 2 or text_embeddings.ndim != 2:
        raise ValueError("inputs must be 2-D")
    if image_embeddings.shape != text_embeddings.shape:
        raise ValueError("image and text batches differ")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    image_features = image_embeddings / image_embeddings.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    text_features = text_embeddings / text_embeddings.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    logits_per_image = image_features @ text_features.t() / temperature
    ground_truth = torch.arange(len(logits_per_image))
    loss = F.cross_entropy(logits_per_image, ground_truth)
    i2t = (logits_per_image.argmax(1) == ground_truth).float().mean().item()
    t2i = (logits_per_image.argmax(0) == ground_truth).float().mean().item()
    return {"loss": loss, "similarities": logits_per_image, "image_to_text_accuracy": i2t,
            "text_to_image_accuracy": t2i}
