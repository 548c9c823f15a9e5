"""timm's VisionTransformer Block, rebuilt as modules and run on the given weights with
torch.func.functional_call (so gradients reach the caller's tensors)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

KEYS = {  # params key -> module parameter name
    "ln1_weight": "norm1.weight", "ln1_bias": "norm1.bias",
    "qkv_weight": "attn.qkv.weight", "qkv_bias": "attn.qkv.bias",
    "proj_weight": "attn.proj.weight", "proj_bias": "attn.proj.bias",
    "ln2_weight": "norm2.weight", "ln2_bias": "norm2.bias",
    "fc1_weight": "mlp.fc1.weight", "fc1_bias": "mlp.fc1.bias",
    "fc2_weight": "mlp.fc2.weight", "fc2_bias": "mlp.fc2.bias",
}


class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, dim * 3, bias=True)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        x = F.scaled_dot_product_attention(q, k, v)
        x = x.transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden_features, in_features)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, dim, num_heads, hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, num_heads)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = Mlp(dim, hidden)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


def _check(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    dim = x.shape[-1]
    if not isinstance(num_heads, int) or num_heads <= 0 or dim % num_heads:
        raise ValueError("num_heads must be a positive divisor of D")
    missing = [k for k in KEYS if k not in params]
    if missing:
        raise ValueError(f"missing parameters: {missing}")
    hidden = params["fc1_weight"].shape[0]
    expected = {"ln1_weight": (dim,), "ln1_bias": (dim,), "ln2_weight": (dim,), "ln2_bias": (dim,),
                "qkv_weight": (3 * dim, dim), "qkv_bias": (3 * dim,), "proj_weight": (dim, dim),
                "proj_bias": (dim,), "fc1_weight": (hidden, dim), "fc1_bias": (hidden,),
                "fc2_weight": (dim, hidden), "fc2_bias": (dim,)}
    for key, shape in expected.items():
        if tuple(params[key].shape) != shape:
            raise ValueError(f"{key} must have shape {shape}, got {tuple(params[key].shape)}")
    return dim, hidden


def vit_block(x, params, num_heads):
    dim, hidden = _check(x, params, num_heads)
    with torch.device("meta"):  # the module's own weights are never used: skip allocating them
        block = Block(dim, num_heads, hidden)
    return functional_call(block, {name: params[key] for key, name in KEYS.items()}, (x,))
