"""Known mistakes for `patchify`, each a complete solution with one classic error.

The judge runs these on a failing test's inputs; when the submission's output
equals one of them, the message names that mistake.
"""
import torch
import torch.nn.functional as F


def _grid(rows, cols):
    return torch.stack([torch.arange(rows).repeat_interleave(cols), torch.arange(cols).repeat(rows)], dim=1)


def _correct(images, ph, pw):
    b, c, h, w = images.shape
    rows, cols = h // ph, w // pw
    tokens = images.reshape(b, c, rows, ph, cols, pw).permute(0, 2, 4, 1, 3, 5).reshape(b, rows * cols, c * ph * pw)
    return tokens, _grid(rows, cols)


def column_major(images, ph, pw):
    b, c, h, w = images.shape
    rows, cols = h // ph, w // pw
    tokens = images.reshape(b, c, rows, ph, cols, pw).permute(0, 4, 2, 1, 3, 5).reshape(b, rows * cols, c * ph * pw)
    coords = torch.stack([torch.arange(rows).repeat(cols), torch.arange(cols).repeat_interleave(rows)], dim=1)
    return {"tokens": tokens, "coordinates": coords}


def column_major_tokens_only(images, ph, pw):
    result = column_major(images, ph, pw)
    return {"tokens": result["tokens"], "coordinates": _correct(images, ph, pw)[1]}


def channels_last_flatten(images, ph, pw):
    b, c, h, w = images.shape
    rows, cols = h // ph, w // pw
    tokens = images.reshape(b, c, rows, ph, cols, pw).permute(0, 2, 4, 3, 5, 1).reshape(b, rows * cols, c * ph * pw)
    return {"tokens": tokens, "coordinates": _grid(rows, cols)}


def overlapping(images, ph, pw):
    """unfold without stride=: every stride-1 window, with the grid computed correctly."""
    b, c, h, w = images.shape
    tokens = F.unfold(images, (ph, pw), stride=1).transpose(1, 2)
    return {"tokens": tokens, "coordinates": _grid(h // ph, w // pw)}


def overlapping_sliding_grid(images, ph, pw):
    b, c, h, w = images.shape
    tokens = F.unfold(images, (ph, pw), stride=1).transpose(1, 2)
    return {"tokens": tokens, "coordinates": _grid(h - ph + 1, w - pw + 1)}


def reshape_without_permute(images, ph, pw):
    b, c, h, w = images.shape
    rows, cols = h // ph, w // pw
    return {"tokens": images.reshape(b, rows * cols, c * ph * pw), "coordinates": _grid(rows, cols)}


def _swapped_tokens(images, ph, pw):
    # Tensor.unfold (like F.unfold) drops a remainder, so the swapped sizes need
    # not divide H and W: kernel (pw, ph), as image libraries write (width, height).
    b, c, h, w = images.shape
    x = images.unfold(2, pw, pw).unfold(3, ph, ph)  # (B, C, H // pw, W // ph, pw, ph)
    return x.permute(0, 2, 3, 1, 4, 5).reshape(b, x.shape[2] * x.shape[3], c * ph * pw)


def swapped_patch_sizes(images, ph, pw):
    b, c, h, w = images.shape
    return {"tokens": _swapped_tokens(images, ph, pw), "coordinates": _grid(h // pw, w // ph)}


def swapped_patch_sizes_tokens_only(images, ph, pw):
    b, c, h, w = images.shape
    return {"tokens": _swapped_tokens(images, ph, pw), "coordinates": _grid(h // ph, w // pw)}


def swapped_height_width(images, ph, pw):
    tokens, _ = _correct(images.transpose(2, 3), pw, ph)
    b, c, h, w = images.shape
    return {"tokens": tokens, "coordinates": _grid(w // pw, h // ph)}


def batch_mixing(images, ph, pw):
    b, c, h, w = images.shape
    rows, cols = h // ph, w // pw
    per_position = images.reshape(b, c, rows, ph, cols, pw).permute(2, 4, 0, 1, 3, 5)  # (rows, cols, B, ...)
    return {"tokens": per_position.reshape(b, rows * cols, c * ph * pw), "coordinates": _grid(rows, cols)}


def xy_coordinates(images, ph, pw):
    tokens, coords = _correct(images, ph, pw)
    return {"tokens": tokens, "coordinates": coords.flip(1)}


def silent_cropping(images, ph, pw):
    """The remainder that does not fill a patch is dropped instead of raising ValueError."""
    b, c, h, w = images.shape
    rows, cols = h // ph, w // pw
    tokens, coords = _correct(images[:, :, :rows * ph, :cols * pw], ph, pw)
    return {"tokens": tokens, "coordinates": coords}


def unfold_reshaped_not_transposed(images, ph, pw):
    """F.unfold's (B, F, N) columns reshaped to (B, N, F), as learners write it after unfold."""
    _, coordinates = _correct(images, ph, pw)
    cols = F.unfold(images, kernel_size=(ph, pw), stride=(ph, pw))
    return {"tokens": cols.reshape(cols.shape[0], cols.shape[2], cols.shape[1]), "coordinates": coordinates}
