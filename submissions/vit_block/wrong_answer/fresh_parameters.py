import torch
import torch.nn as nn


def vit_block(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    D = x.shape[-1]
    if not isinstance(num_heads, int) or num_heads < 1 or D % num_heads:
        raise ValueError("num_heads must divide D")
    keys = ("ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
            "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")
    if any(k not in params for k in keys):
        raise ValueError("missing parameter")
    hidden = params["fc1_weight"].shape[0]
    shapes = {"qkv_weight": (3 * D, D), "qkv_bias": (3 * D,), "proj_weight": (D, D),
              "fc1_weight": (hidden, D), "fc1_bias": (hidden,), "fc2_weight": (D, hidden)}
    if any(tuple(params[k].shape) != shapes.get(k, (D,)) for k in keys):
        raise ValueError("bad parameter shape")
    norm1, norm2 = nn.LayerNorm(D, eps=1e-6), nn.LayerNorm(D, eps=1e-6)
    attn = nn.MultiheadAttention(D, num_heads, batch_first=True)
    fc1, fc2 = nn.Linear(D, hidden), nn.Linear(hidden, D)
    modules = (norm1, norm2, attn, fc1, fc2)
    for m in modules:
        m.to(x.dtype)
    # mistake: copying into fresh nn.Parameters under no_grad cuts the caller's tensors out of the graph
    with torch.no_grad():
        norm1.weight.copy_(params["ln1_weight"]); norm1.bias.copy_(params["ln1_bias"])
        norm2.weight.copy_(params["ln2_weight"]); norm2.bias.copy_(params["ln2_bias"])
        attn.in_proj_weight.copy_(params["qkv_weight"]); attn.in_proj_bias.copy_(params["qkv_bias"])
        attn.out_proj.weight.copy_(params["proj_weight"]); attn.out_proj.bias.copy_(params["proj_bias"])
        fc1.weight.copy_(params["fc1_weight"]); fc1.bias.copy_(params["fc1_bias"])
        fc2.weight.copy_(params["fc2_weight"]); fc2.bias.copy_(params["fc2_bias"])
    y = norm1(x)
    h = x + attn(y, y, y, need_weights=False)[0]
    return h + fc2(nn.functional.gelu(fc1(norm2(h))))
