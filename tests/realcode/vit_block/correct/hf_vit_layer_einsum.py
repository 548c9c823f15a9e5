"""Hugging Face ViTLayer's path on the given weights: transpose_for_scores, scores / sqrt(head size), softmax, context; no type check.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTSelfAttention: attention_head_size = int(hidden_size / num_attention_heads), transpose_for_scores, torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(attention_head_size), softmax, context; ViTLayer: layernorm_before, attention, residual, layernorm_after, intermediate GELU, output, residual), with one fused qkv weight split as q, k, v and the hidden-size check raised as ValueError as the original's config check does
expect: accepted
"""
import math

import torch
from torch import nn

KEYS = ("ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
        "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")


def vit_block(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError("hidden_states must be (batch, seq_len, hidden_size)")
    hidden_size = x.shape[-1]
    if num_heads <= 0 or hidden_size % num_heads != 0:
        raise ValueError(f"The hidden size ({hidden_size}) is not a multiple of the number of attention "
                         f"heads ({num_heads})")
    absent = [k for k in KEYS if k not in params]
    if absent:
        raise ValueError(f"missing weights: {absent}")
    intermediate = params["fc1_weight"].shape[0]
    shapes = {"qkv_weight": (3 * hidden_size, hidden_size), "qkv_bias": (3 * hidden_size,),
              "proj_weight": (hidden_size, hidden_size), "fc1_weight": (intermediate, hidden_size),
              "fc1_bias": (intermediate,), "fc2_weight": (hidden_size, intermediate)}
    for key in KEYS:
        if params[key].shape != torch.Size(shapes.get(key, (hidden_size,))):
            raise ValueError(f"{key}: wrong shape {tuple(params[key].shape)}")
    head_size = int(hidden_size / num_heads)

    def transpose_for_scores(t):
        return t.view(t.size()[:-1] + (num_heads, head_size)).permute(0, 2, 1, 3)

    layernorm_before = nn.functional.layer_norm(x, (hidden_size,), params["ln1_weight"], params["ln1_bias"], 1e-6)
    mixed = layernorm_before @ params["qkv_weight"].T + params["qkv_bias"]
    query, key, value = (transpose_for_scores(t) for t in mixed.split(hidden_size, dim=-1))
    scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(head_size)
    probs = nn.functional.softmax(scores, dim=-1)
    context = torch.matmul(probs, value).permute(0, 2, 1, 3).contiguous()
    context = context.view(context.size()[:-2] + (hidden_size,))
    hidden = x + context @ params["proj_weight"].T + params["proj_bias"]
    layernorm_after = nn.functional.layer_norm(hidden, (hidden_size,), params["ln2_weight"], params["ln2_bias"], 1e-6)
    intermediate_out = nn.functional.gelu(layernorm_after @ params["fc1_weight"].T + params["fc1_bias"])
    return hidden + intermediate_out @ params["fc2_weight"].T + params["fc2_bias"]
