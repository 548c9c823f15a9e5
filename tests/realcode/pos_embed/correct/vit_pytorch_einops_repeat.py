"""vit-pytorch's forward: einops.repeat the class token over the batch, concatenate in front, add the table's first n + 1 rows, checked first.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT.forward: cls_tokens = repeat(self.cls_token, '1 1 d -> b 1 d', b = b); x = torch.cat((cls_tokens, x), dim=1); x += self.pos_embedding[:, :(n + 1)]), with the in-place += written out of place and the shape errors the contract names; torch's own errors stand for anything that is not a tensor
expect: accepted
"""
import torch
from einops import repeat


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.ndim != 3:
        raise ValueError(f"tokens must be (b, n, d), got {tokens.ndim} dims")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d):
        raise ValueError(f"cls_token must be (1, 1, {d}), got {tuple(cls_token.shape)}")
    if pos_embedding.shape != (1, n + 1, d):
        raise ValueError(f"pos_embedding must be (1, {n + 1}, {d}), got {tuple(pos_embedding.shape)}")
    cls_tokens = repeat(cls_token, "1 1 d -> b 1 d", b=b)
    x = torch.cat((cls_tokens, tokens), dim=1)
    return x + pos_embedding[:, :(n + 1)]
