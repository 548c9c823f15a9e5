"""Known mistakes for `resize_pos_embed`, each a complete solution with one classic error.

Class-row mistakes that change the shape (the row dropped) are matched by
shape as well as values.
"""
import torch
import torch.nn.functional as F


def _resize(grid, gh, gw, nh, nw, **options):
    """(1, gh*gw, D) row-major grid rows -> (1, nh*nw, D), resized as an image."""
    dim = grid.shape[-1]
    image = grid.reshape(1, gh, gw, dim).permute(0, 3, 1, 2)
    mode = options.pop("mode", "bicubic")
    image = F.interpolate(image, size=(nh, nw), mode=mode, **options)
    return image.permute(0, 2, 3, 1).reshape(1, nh * nw, dim)


def _split(pos_embed, old_grid, new_grid):
    (gh, gw), (nh, nw) = old_grid, new_grid
    return pos_embed[:, :1], pos_embed[:, 1:], gh, gw, nh, nw


def class_row_in_grid(pos_embed, old_grid, new_grid):
    cls, _, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    grid = pos_embed[:, : gh * gw]  # read from row 0: the class row taken as the first cell
    return torch.cat([cls, _resize(grid, gh, gw, nh, nw, align_corners=False)], dim=1)


def whole_sequence_along_tokens(pos_embed, old_grid, new_grid):
    _, _, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    seq = F.interpolate(pos_embed.transpose(1, 2), size=1 + nh * nw, mode="linear", align_corners=False)
    return seq.transpose(1, 2)


def grid_along_tokens(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    seq = F.interpolate(grid.transpose(1, 2), size=nh * nw, mode="linear", align_corners=False)
    return torch.cat([cls, seq.transpose(1, 2)], dim=1)


def column_major_grid(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    dim = grid.shape[-1]
    image = grid.reshape(1, gw, gh, dim).permute(0, 3, 2, 1)  # read down the columns
    image = F.interpolate(image, size=(nh, nw), mode="bicubic", align_corners=False)
    out = image.permute(0, 3, 2, 1).reshape(1, nh * nw, dim)  # and written back the same way
    return torch.cat([cls, out], dim=1)


def grid_read_as_gw_gh(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([cls, _resize(grid, gw, gh, nh, nw, align_corners=False)], dim=1)


def bilinear(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([cls, _resize(grid, gh, gw, nh, nw, mode="bilinear", align_corners=False)], dim=1)


def nearest(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([cls, _resize(grid, gh, gw, nh, nw, mode="nearest")], dim=1)


def align_corners(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([cls, _resize(grid, gh, gw, nh, nw, align_corners=True)], dim=1)


def antialias(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([cls, _resize(grid, gh, gw, nh, nw, align_corners=False, antialias=True)], dim=1)


def class_row_dropped(pos_embed, old_grid, new_grid):
    _, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return _resize(grid, gh, gw, nh, nw, align_corners=False)


def class_row_last(pos_embed, old_grid, new_grid):
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([_resize(grid, gh, gw, nh, nw, align_corners=False), cls], dim=1)


def same_count_shortcut(pos_embed, old_grid, new_grid):
    # the shortcut of HF's interpolate_pos_encoding (and older timm): nothing to do when the
    # number of patches is unchanged, whatever the grid's shape
    (gh, gw), (nh, nw) = old_grid, new_grid
    if gh * gw == nh * nw:
        return pos_embed
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    return torch.cat([cls, _resize(grid, gh, gw, nh, nw, align_corners=False)], dim=1)


def grid_reshaped_channels_first(pos_embed, old_grid, new_grid):
    """The (1, gh*gw, D) rows reshaped to (1, D, gh, gw) as they lie in memory, resized, and read back channels first."""
    cls, grid, gh, gw, nh, nw = _split(pos_embed, old_grid, new_grid)
    dim = grid.shape[-1]
    image = F.interpolate(grid.reshape(1, dim, gh, gw), size=(nh, nw), mode="bicubic", align_corners=False)
    return torch.cat([cls, image.reshape(1, dim, nh * nw).transpose(1, 2)], dim=1)
