import torch
import torch.nn.functional as F

SHAPES = {  # key -> shape, in terms of D and the MLP width Hd
    "ln1_weight": ("D",), "ln1_bias": ("D",), "ln2_weight": ("D",), "ln2_bias": ("D",),
    "qkv_weight": ("3D", "D"), "qkv_bias": ("3D",), "proj_weight": ("D", "D"), "proj_bias": ("D",),
    "fc1_weight": ("Hd", "D"), "fc1_bias": ("Hd",), "fc2_weight": ("D", "Hd"), "fc2_bias": ("D",),
}


def vit_block(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    b, t, d = x.shape
    if isinstance(num_heads, bool) or not isinstance(num_heads, int) or num_heads <= 0 or d % num_heads:
        raise ValueError("num_heads must be a positive divisor of D")
    for key in SHAPES:
        if key not in params:
            raise ValueError(f"params['{key}'] is missing")
    sizes = {"D": d, "3D": 3 * d, "Hd": params["fc1_weight"].shape[0]}
    for key, dims in SHAPES.items():
        if tuple(params[key].shape) != tuple(sizes[n] for n in dims):
            raise ValueError(f"params['{key}'] has the wrong shape")
    p, hd = params, d // num_heads

    y = F.layer_norm(x, (d,), p["ln1_weight"], p["ln1_bias"], eps=1e-6)
    qkv = torch.einsum("btd,ed->bte", y, p["qkv_weight"]) + p["qkv_bias"]
    q, k, v = (z.reshape(b, t, num_heads, hd) for z in qkv.chunk(3, dim=-1))
    scores = torch.einsum("bihc,bjhc->bhij", q, k) / hd ** 0.5
    heads = torch.einsum("bhij,bjhc->bihc", scores.softmax(dim=-1), v).reshape(b, t, d)
    h = x + torch.einsum("btd,ed->bte", heads, p["proj_weight"]) + p["proj_bias"]

    y = F.layer_norm(h, (d,), p["ln2_weight"], p["ln2_bias"], eps=1e-6)
    hidden = F.gelu(torch.einsum("btd,ed->bte", y, p["fc1_weight"]) + p["fc1_bias"])
    return h + torch.einsum("bte,de->btd", hidden, p["fc2_weight"]) + p["fc2_bias"]
