"""vit-pytorch's posemb_sincos_2d in torch float64, with MAE's frequencies and class row, returned as numpy.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/simple_vit.py (posemb_sincos_2d: meshgrid, omega, cat(x.sin, x.cos, y.sin, y.cos)), its omega = i / (dim // 4) as MAE's util/pos_embed.py has it
expect: accepted
"""
import torch


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0 or dim % 4:
        raise ValueError("dim must be a positive multiple of 4")
    for size in (grid_height, grid_width):
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError("grid sizes must be positive ints")
    y, x = torch.meshgrid(torch.arange(grid_height, dtype=torch.float64),
                          torch.arange(grid_width, dtype=torch.float64), indexing="ij")
    omega = torch.arange(dim // 4, dtype=torch.float64) / (dim // 4)
    omega = 1.0 / (10000 ** omega)
    y = y.flatten()[:, None] * omega[None, :]
    x = x.flatten()[:, None] * omega[None, :]
    pe = torch.cat((x.sin(), x.cos(), y.sin(), y.cos()), dim=1)
    if cls_token:
        pe = torch.cat((torch.zeros(1, dim, dtype=torch.float64), pe), dim=0)
    return pe.numpy()
