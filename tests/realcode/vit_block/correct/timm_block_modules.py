"""timm's ViT Block (pre-norm, Attention with qkv_bias=True, Mlp with nn.GELU), weights loaded.

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (Attention, Block) and timm/layers/mlp.py (Mlp)
expect: accepted
"""
import math

import torch
import torch.nn.functional as F
from torch import nn


KEYS = ("ln1_weight", "ln1_bias", "ln2_weight", "ln2_bias", "qkv_weight", "qkv_bias",
        "proj_weight", "proj_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")


def _check(x, params, num_heads):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    dim = x.shape[-1]
    if not isinstance(num_heads, int) or num_heads < 1 or dim % num_heads:
        raise ValueError("num_heads must divide D")
    missing = [k for k in KEYS if k not in params]
    if missing:
        raise ValueError(f"missing parameters {missing}")
    hidden = params["fc1_weight"].shape[0]
    want = {"qkv_weight": (3 * dim, dim), "qkv_bias": (3 * dim,), "proj_weight": (dim, dim), "proj_bias": (dim,),
            "fc1_weight": (hidden, dim), "fc1_bias": (hidden,), "fc2_weight": (dim, hidden), "fc2_bias": (dim,)}
    for k in KEYS:
        if tuple(params[k].shape) != want.get(k, (dim,)):
            raise ValueError(f"{k} has shape {tuple(params[k].shape)}")


class Attention(nn.Module):
    def __init__(self, dim, num_heads, qkv_bias=True):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q * self.scale) @ k.transpose(-2, -1)
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, num_heads, hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, num_heads, qkv_bias=True)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.fc1, self.act, self.fc2 = nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.fc2(self.act(self.fc1(self.norm2(x))))


def vit_block(x, params, num_heads):
    _check(x, params, num_heads)
    block = Block(x.shape[-1], num_heads, params["fc1_weight"].shape[0]).to(x.dtype)
    for module, prefix in ((block.norm1, "ln1"), (block.norm2, "ln2"), (block.attn.qkv, "qkv"),
                           (block.attn.proj, "proj"), (block.fc1, "fc1"), (block.fc2, "fc2")):
        del module.weight, module.bias  # the given tensors become the parameters, so gradients reach them
        module.weight, module.bias = params[f"{prefix}_weight"], params[f"{prefix}_bias"]
    return block(x)
