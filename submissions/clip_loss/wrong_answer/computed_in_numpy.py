import numpy as np
import torch


def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape or temperature <= 0:
        raise ValueError("bad input")
    image = image_embeddings.detach().numpy()                        # mistake: leaves autograd for numpy
    text = text_embeddings.detach().numpy()
    image = image / np.maximum(np.linalg.norm(image, axis=1, keepdims=True), 1e-12)
    text = text / np.maximum(np.linalg.norm(text, axis=1, keepdims=True), 1e-12)
    s = image @ text.T / np.float32(temperature)
    n = len(s)

    def ce(x):
        top = x.max(axis=1, keepdims=True)
        return np.mean(top[:, 0] + np.log(np.exp(x - top).sum(axis=1)) - np.diag(x))

    loss = (ce(s) + ce(s.T)) / 2
    return {"loss": torch.tensor(loss, dtype=image_embeddings.dtype), "similarities": torch.from_numpy(s),
            "image_to_text_accuracy": float(np.mean(s.argmax(1) == np.arange(n))),
            "text_to_image_accuracy": float(np.mean(s.argmax(0) == np.arange(n)))}
