"""open_clip's SigLIP loss with the training loop's habit of logging the scale, the bias and the logits themselves.

Adapted from: mlfoundations/open_clip, src/open_clip/loss.py (SigLipLoss._loss) and src/training/train.py (logging.info of logit_scale and the loss every log step)
expect: accepted
"""
import logging

import torch
import torch.nn.functional as F

logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)s | %(message)s")
logger = logging.getLogger(__name__)


def siglip_loss(image_embeddings, text_embeddings, t_prime, bias):
    if image_embeddings.dim() != 2 or image_embeddings.shape != text_embeddings.shape:
        raise ValueError("embeddings must be two (N, D) tensors of one shape")
    image_features = F.normalize(image_embeddings, dim=-1)
    text_features = F.normalize(text_embeddings, dim=-1)
    logit_scale = torch.as_tensor(t_prime, dtype=image_features.dtype).exp()
    logit_bias = torch.as_tensor(bias, dtype=image_features.dtype)
    logits = logit_scale * image_features @ text_features.T + logit_bias
    logger.info("logit_scale %s logit_bias %s", logit_scale, logit_bias)
    logger.info("logits:\n%s", logits)
    n = logits.shape[0]
    labels = 2 * torch.eye(n, dtype=logits.dtype) - 1
    loss = -F.logsigmoid(labels * logits).sum() / n
    logger.info("loss %.6f, %s", loss, loss)
    return loss
