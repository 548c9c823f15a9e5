"""Hugging Face's ViTPooler (first token) used for both modes.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTPooler.forward, dense layer left out)
expect: wrong_answer
mistake: cls_for_both_modes
"""
import torch


def _check(x, mode):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, 1 + N, D)")
    if mode not in ("cls", "mean"):
        raise ValueError(f"unknown mode {mode!r}")
    if mode == "mean" and x.shape[1] < 2:
        raise ValueError("mean pooling needs at least one patch token")


def vit_pool(x, mode):
    _check(x, mode)
    first_token_tensor = x[:, 0]
    return first_token_tensor
