"""Works in float64 internally (via log_softmax on both axes) and casts back to the inputs' dtype."""
import torch


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if len(image_embeddings.shape) != 2 or tuple(image_embeddings.shape) != tuple(text_embeddings.shape):
        raise ValueError("need matching (N, D) inputs")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    dtype = image_embeddings.dtype
    image = image_embeddings.double()
    text = text_embeddings.double()
    image = image / torch.clamp(torch.sqrt((image * image).sum(-1, keepdim=True)), min=1e-12)
    text = text / torch.clamp(torch.sqrt((text * text).sum(-1, keepdim=True)), min=1e-12)
    sims = torch.einsum("id,jd->ij", image / temperature, text)
    rows = torch.log_softmax(sims, dim=1).diagonal()
    cols = torch.log_softmax(sims, dim=0).diagonal()
    loss = -(rows.mean() + cols.mean()) / 2
    n = sims.shape[0]
    i2t = sum(int(torch.argmax(sims[i])) == i for i in range(n)) / n
    t2i = sum(int(torch.argmax(sims[:, j])) == j for j in range(n)) / n
    return {"loss": loss.to(dtype), "similarities": sims.to(dtype),
            "image_to_text_accuracy": torch.tensor(i2t, dtype=dtype), "text_to_image_accuracy": t2i}
